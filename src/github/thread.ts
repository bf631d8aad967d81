import type { ProbotOctokit } from 'probot';
import type { IssueFacts } from '../claims/decide.js';
import type { ThreadComment } from '../claims/types.js';
import type { IssueKey } from '../keys.js';
import { IssueGoneError, isGoneStatus, statusOf, UnverifiableError } from './errors.js';

// Re-exported: the client and the app import GitHub's error reading from here.
export { IssueGoneError, statusOf, UnverifiableError } from './errors.js';

/** docs/protocol.md §6: a thread longer than this cannot be verified. */
export const MAX_THREAD_COMMENTS = 1000;

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
export interface GitHubComment {
  readonly id: number;
  readonly user?: { readonly login: string; readonly avatar_url?: string } | null;
  readonly author_association: string;
  readonly body?: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly html_url: string;
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
 * GitHub error, or a thread of more than 1,000 comments, throws UnverifiableError; a 404 or
 * 410 on the issue itself throws IssueGoneError (which may be transient: the caller decides).
 */
export async function readThread(
  octokit: ProbotOctokit,
  key: IssueKey,
): Promise<IssueThread & { readonly meta: IssueMeta }> {
  const where = { owner: key.owner, repo: key.repo, issue_number: key.number };
  let issue: Awaited<ReturnType<ProbotOctokit['rest']['issues']['get']>>['data'];
  try {
    issue = (await octokit.rest.issues.get(where)).data;
  } catch (error) {
    const status = statusOf(error);
    if (isGoneStatus(status)) throw new IssueGoneError(key, status);
    throw new UnverifiableError('could not read the issue', key, status, { cause: error });
  }
  // Checked before paging: a thread that long cannot be verified, so do not spend the calls.
  if (issue.comments > MAX_THREAD_COMMENTS) {
    throw new UnverifiableError(
      `the thread has ${issue.comments} comments, more than ${MAX_THREAD_COMMENTS}`,
      key,
    );
  }

  const comments: ThreadComment[] = [];
  try {
    const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
      ...where,
      per_page: 100,
    });
    for await (const page of pages) {
      for (const c of page.data) comments.push(threadComment(c));
      // Comments may have been added since the issue was read.
      if (comments.length > MAX_THREAD_COMMENTS) {
        throw new UnverifiableError(
          `the thread has more than ${MAX_THREAD_COMMENTS} comments`,
          key,
        );
      }
    }
  } catch (error) {
    if (error instanceof UnverifiableError) throw error;
    throw new UnverifiableError('could not read the thread', key, statusOf(error), {
      cause: error,
    });
  }

  return {
    open: issue.state === 'open',
    stateReason: issue.state_reason ?? null,
    isPullRequest: issue.pull_request !== undefined && issue.pull_request !== null,
    labels: issue.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean),
    assignees: (issue.assignees ?? []).map((a) => a.login),
    comments,
    meta: {
      title: issue.title,
      url: issue.html_url,
      createdAt: issue.created_at,
      updatedAt: issue.updated_at,
    },
  };
}
