import type { ProbotOctokit } from 'probot';
import type { IssueFacts } from '../claims/issue-facts.js';
import type { ThreadComment } from '../claims/types.js';
import type { IssueKey } from '../keys.js';
import { conditionalGet, conditionalPages, type ReadCache } from './conditional.js';
import { IssueGoneError, isGoneStatus, statusOf, UnverifiableError } from './errors.js';

/**
 * docs/protocol.md §6: a thread longer than this cannot be verified. GitHub takes no comment
 * on an issue past about 2,500, so every thread anyone can still comment on (and so post a
 * claim or a command on) is read whole; the margin covers GitHub's "about".
 */
export const MAX_THREAD_COMMENTS = 3000;

/**
 * How long a conditional read of a thread keeps its answers (docs/api-budget.md). An ETag
 * only matches for the token that got it, and installation tokens last an hour, so an older
 * answer could never be used: the hour bounds what the store holds to the threads read in it.
 */
const THREAD_READ_TTL_MS = 3_600_000;

/** An issue and its whole thread, as GitHub reported them in one reconcile. */
export type IssueThread = Omit<IssueFacts, 'appLogin' | 'hints' | 'appAssignees'>;

/** What the claims API and the work queue show of an issue besides its facts (§8, §9). */
export interface IssueMeta {
  readonly title: string;
  readonly url: string;
  /** GitHub's times, `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The fields of an issue comment GitHub returns (list, create) that the thread keeps. */
interface GitHubComment {
  readonly id: number;
  readonly user?: {
    readonly login: string;
    readonly avatar_url?: string;
    /** `User`, `Bot` or `Organization`: a bot is never a person (docs/protocol.md §16). */
    readonly type?: string;
  } | null;
  readonly author_association: string;
  readonly body?: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly html_url: string;
  /** GitHub's rollup of the comment's reactions; kept answers from before it lack it. */
  readonly reactions?: { readonly '+1'?: number };
}

/** An issue comment as GitHub returns it, as the thread (and decide) reads it. */
export function threadComment(c: GitHubComment): ThreadComment {
  return {
    id: c.id,
    author: c.user?.login ?? '',
    authorAssociation: c.author_association,
    body: c.body ?? '',
    createdAt: new Date(c.created_at),
    updatedAt: new Date(c.updated_at),
    url: c.html_url,
    ...(c.user?.avatar_url ? { avatarUrl: c.user.avatar_url } : {}),
  };
}

/**
 * Reads an issue and every comment of its thread, 100 a page. Fails closed (docs/protocol.md §6): any
 * GitHub error, or a thread of more than 3,000 comments, throws UnverifiableError; a 404 or
 * 410 on the issue itself throws IssueGoneError (which may be transient: the caller decides).
 *
 * With a `cache`, every read is conditional (docs/api-budget.md): a 304 is GitHub's own answer
 * that nothing changed since the kept read with the same token, so its kept copy (the reduced
 * issue and comments, exactly as the 200 gave them) is the thread as it is now.
 */
export async function readThread(
  octokit: ProbotOctokit,
  key: IssueKey,
  cache?: ReadCache,
): Promise<IssueThread & { readonly meta: IssueMeta; readonly plusOnes: PlusOnes }> {
  let issue: KeptIssue;
  try {
    issue = await readIssue(octokit, key, cache);
  } catch (error) {
    const status = statusOf(error);
    if (isGoneStatus(status)) throw new IssueGoneError(key, status);
    throw new UnverifiableError('could not read the issue', key, status, { cause: error });
  }
  const { commentCount, ...facts } = issue;
  // Checked before paging: a thread that long cannot be verified, so do not spend the calls.
  if (commentCount > MAX_THREAD_COMMENTS) {
    throw new UnverifiableError(
      `the thread has ${commentCount} comments, more than ${MAX_THREAD_COMMENTS}`,
      key,
    );
  }

  let listed = await readComments(octokit, key, cache, false);
  // A page's ETag covers its body, not its Link header: a full last page answered 304 keeps
  // "no next page" after a comment was added behind it. Fewer comments than the issue counts
  // then lists the thread again in full (GitHub answers the stale pages anew).
  if (listed.kept && listed.comments.length < commentCount) {
    listed = await readComments(octokit, key, cache, true);
  }
  return {
    ...facts,
    comments: listed.comments.map(threadComment),
    plusOnes: plusOnesOf(listed.comments),
    bots: botsOf(facts.bots ?? [], listed.comments),
  };
}

/** The assignees GitHub typed `Bot`, and the comment authors it did: each login once. */
function botsOf(assignees: readonly string[], comments: readonly GitHubComment[]): string[] {
  const bots = new Map(assignees.map((login) => [login.toLowerCase(), login]));
  for (const c of comments) {
    if (c.user?.type === 'Bot') bots.set(c.user.login.toLowerCase(), c.user.login);
  }
  return [...bots.values()];
}

/**
 * How many 👍 each comment carries, by comment id, as GitHub's rollup counts them; a comment
 * missing here has a count unknown (a kept answer from before it was kept), never 0. People's
 * commands read who reacted only where the count is not 0 (docs/protocol.md §16).
 */
export type PlusOnes = ReadonlyMap<number, number>;

function plusOnesOf(comments: readonly GitHubComment[]): PlusOnes {
  const counts = new Map<number, number>();
  for (const c of comments) {
    const count = c.reactions?.['+1'];
    if (count !== undefined) counts.set(c.id, count);
  }
  return counts;
}

/** The issue, conditionally with a cache. */
async function readIssue(
  octokit: ProbotOctokit,
  key: IssueKey,
  cache: ReadCache | undefined,
): Promise<KeptIssue> {
  const where = { owner: key.owner, repo: key.repo, issue_number: key.number };
  if (!cache) return keptIssue((await octokit.rest.issues.get(where)).data);
  const answer = await conditionalGet(
    octokit,
    cache,
    'GET /repos/{owner}/{repo}/issues/{issue_number}',
    where,
    (response) => keptIssue(response.data as GitHubIssue),
    { ttlMs: THREAD_READ_TTL_MS },
  );
  return answer.value;
}

/** The issue as the thread keeps it: its facts, its comment count and its meta. */
type KeptIssue = Omit<IssueThread, 'comments'> & {
  readonly commentCount: number;
  readonly meta: IssueMeta;
};

/** The fields of an issue GitHub returns that the thread reads. */
type GitHubIssue = Awaited<ReturnType<ProbotOctokit['rest']['issues']['get']>>['data'];

/** Only the fields the thread reads, so a kept answer holds no more of GitHub's. */
function keptIssue(issue: GitHubIssue): KeptIssue {
  return {
    open: issue.state === 'open',
    stateReason: issue.state_reason ?? null,
    isPullRequest: issue.pull_request !== undefined && issue.pull_request !== null,
    labels: issue.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean),
    assignees: (issue.assignees ?? []).map((a) => a.login),
    bots: (issue.assignees ?? []).filter((a) => a.type === 'Bot').map((a) => a.login),
    commentCount: issue.comments,
    meta: {
      title: issue.title,
      url: issue.html_url,
      createdAt: issue.created_at,
      updatedAt: issue.updated_at,
    },
  };
}

/** A thread's comments as GitHub listed them; `kept` when a page was answered 304. */
interface ListedComments {
  readonly comments: readonly GitHubComment[];
  readonly kept: boolean;
}

/**
 * Every comment of the issue, 100 a page, reduced to what the thread keeps. With a cache the
 * pages are conditional (`fresh`: sent without an ETag, so every page is answered in full).
 */
async function readComments(
  octokit: ProbotOctokit,
  key: IssueKey,
  cache: ReadCache | undefined,
  fresh: boolean,
): Promise<ListedComments> {
  const where = { owner: key.owner, repo: key.repo, issue_number: key.number, per_page: 100 };
  const comments: GitHubComment[] = [];
  let kept = false;
  const take = (page: readonly GitHubComment[]) => {
    comments.push(...page);
    // Comments may have been added since the issue was read.
    if (comments.length > MAX_THREAD_COMMENTS) {
      throw new UnverifiableError(`the thread has more than ${MAX_THREAD_COMMENTS} comments`, key);
    }
  };
  try {
    if (cache) {
      const pages = conditionalPages(
        octokit,
        cache.store,
        cache.scope,
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        where,
        (data) => (data as GitHubComment[]).map(keptComment),
        { ttlMs: THREAD_READ_TTL_MS, fresh },
      );
      for await (const page of pages) {
        kept ||= !page.changed;
        take(page.items);
      }
    } else {
      for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, where)) {
        take(page.data);
      }
    }
  } catch (error) {
    if (error instanceof UnverifiableError) throw error;
    throw new UnverifiableError('could not read the thread', key, statusOf(error), {
      cause: error,
    });
  }
  return { comments, kept };
}

/** Only the fields the thread reads, so a kept page holds no more of GitHub's answer. */
function keptComment(c: GitHubComment): GitHubComment {
  return {
    id: c.id,
    user: c.user
      ? {
          login: c.user.login,
          ...(c.user.avatar_url ? { avatar_url: c.user.avatar_url } : {}),
          ...(c.user.type ? { type: c.user.type } : {}),
        }
      : null,
    author_association: c.author_association,
    ...(c.body !== undefined ? { body: c.body } : {}),
    created_at: c.created_at,
    updated_at: c.updated_at,
    html_url: c.html_url,
    ...(c.reactions ? { reactions: { '+1': c.reactions['+1'] ?? 0 } } : {}),
  };
}
