import { ApiError } from '../answers/api-error.js';
import type { ApiDeps } from './api-deps.js';
import type { Caller } from './authenticate.js';
import { issueNotFound, repoNotFound } from './not-found.js';
import type { InstalledRepo } from './repo-access.js';

/**
 * The installed repository `target` names, once the caller's own token is known to read it:
 * the first thing every route establishes, before any lock is taken or thread read
 * (docs/protocol.md §8 "Nothing leaks"). The caller's token is asked first, so a repository it
 * cannot read costs the app's installation nothing; then the app's installation. Anything else
 * is the route's one 404 (`what`), the same for every reason.
 */
export async function readableRepo(
  deps: ApiDeps,
  caller: Caller,
  target: { owner: string; repo: string },
  what: 'issue' | 'repo',
): Promise<InstalledRepo> {
  const notFound = what === 'issue' ? issueNotFound : repoNotFound;
  // Never a kept "cannot read": the one 404 costs the same whatever the reason (§8).
  if (!(await deps.access.mayRead(caller, `${target.owner}/${target.repo}`))) throw notFound();
  try {
    return await deps.access.installed(target.owner, target.repo);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') throw notFound();
    throw error;
  }
}
