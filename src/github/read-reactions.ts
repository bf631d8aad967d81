import type { ProbotOctokit } from 'probot';
import { sameName } from '../claims/names.js';
import type { IssueKey } from '../keys.js';
import { conditionalPages, type ReadCache } from './conditional.js';
import { statusOf, UnverifiableError } from './errors.js';

/** As the thread's reads: an ETag outlives no installation token (docs/api-budget.md). */
const REACTIONS_READ_TTL_MS = 3_600_000;

/**
 * Whether the app left its 👍 on a comment (`GET …/issues/comments/{id}/reactions?content=+1`,
 * conditional): an accepted command is answered by that reaction alone (docs/protocol.md
 * §16), so it tells that the command ran. A deleted comment (404) carries none. Any other
 * failure throws UnverifiableError: a command is never run twice on a guess.
 */
export async function reactedByApp(
  octokit: ProbotOctokit,
  cache: ReadCache,
  key: IssueKey,
  commentId: number,
  appLogin: string,
): Promise<boolean> {
  try {
    const pages = conditionalPages(
      octokit,
      cache.store,
      cache.scope,
      'GET /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
      { owner: key.owner, repo: key.repo, comment_id: commentId, content: '+1', per_page: 100 },
      (data) => (data as { user?: { login?: string } | null }[]).map((r) => r.user?.login ?? ''),
      { ttlMs: REACTIONS_READ_TTL_MS },
    );
    for await (const page of pages) {
      if (page.items.some((login) => sameName(login, appLogin))) return true;
    }
    return false;
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) return false;
    throw new UnverifiableError(
      `could not read the reactions of comment ${commentId}`,
      key,
      status,
      {
        cause: error,
      },
    );
  }
}
