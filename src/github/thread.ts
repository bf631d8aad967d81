import type { ProbotOctokit } from 'probot';
import type { IssueFacts } from '../claims/decide.js';
import type { ThreadComment } from '../claims/types.js';
import type { IssueKey } from '../store/store.js';

/** SPEC §6: a thread longer than this cannot be verified. */
export const MAX_THREAD_COMMENTS = 1000;

/**
 * An issue and its whole thread, as GitHub reported them in one reconcile; `title` and `url`
 * (the issue's page) are for display, e.g. on the claims board.
 */
export type IssueThread = Omit<IssueFacts, 'appLogin' | 'hints'> & {
  readonly title?: string;
  readonly url?: string;
};

/**
 * The thread could not be read whole. SPEC §6: nothing is written from partial facts; the
 * reconcile is retried with backoff.
 */
export class UnverifiableError extends Error {
  override readonly name = 'UnverifiableError';
  constructor(
    message: string,
    readonly key: IssueKey,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The issue no longer exists where it was (deleted, or transferred away): nothing to do. */
export class IssueGoneError extends Error {
  override readonly name = 'IssueGoneError';
  constructor(readonly key: IssueKey) {
    super(`issue ${key.owner}/${key.repo}#${key.number} is gone`);
  }
}

/**
 * Reads an issue and every comment of its thread, 100 a page. Fails closed (SPEC §6): any
 * GitHub error, or a thread of more than 1,000 comments, throws UnverifiableError; a 404 or
 * 410 on the issue itself throws IssueGoneError.
 */
export async function readThread(octokit: ProbotOctokit, key: IssueKey): Promise<IssueThread> {
  const where = { owner: key.owner, repo: key.repo, issue_number: key.number };
  let issue: Awaited<ReturnType<ProbotOctokit['rest']['issues']['get']>>['data'];
  try {
    issue = (await octokit.rest.issues.get(where)).data;
  } catch (error) {
    const status = statusOf(error);
    if (status === 404 || status === 410) throw new IssueGoneError(key);
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
      for (const c of page.data) {
        comments.push({
          id: c.id,
          author: c.user?.login ?? '',
          authorAssociation: c.author_association,
          body: c.body ?? '',
          createdAt: new Date(c.created_at),
          updatedAt: new Date(c.updated_at),
          url: c.html_url,
          ...(c.user?.avatar_url ? { avatarUrl: c.user.avatar_url } : {}),
        });
      }
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
    title: issue.title,
    url: issue.html_url,
  };
}

/** The HTTP status of an octokit RequestError, if it is one. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    const { status } = error as { status: unknown };
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}
