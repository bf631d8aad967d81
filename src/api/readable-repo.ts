import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import type { Caller } from './authenticate.js';
import type { InstalledRepo } from './repo-access.js';

/**
 * The installed repository `target` names, when the caller's own token can read it: what
 * `GET …/claim` and the paths check may show (docs/protocol.md §8, §10). Otherwise 404
 * NOT_FOUND, in the names the caller wrote.
 */
export async function readableRepo(
  deps: ApiDeps,
  caller: Caller,
  target: { owner: string; repo: string },
): Promise<InstalledRepo> {
  const repo = await deps.access.installed(target.owner, target.repo);
  if (!(await deps.access.canRead(caller, `${repo.owner}/${repo.repo}`))) {
    throw new ApiError(
      404,
      'NOT_FOUND',
      `your token cannot read ${target.owner}/${target.repo}: check the name and the token's repository access`,
    );
  }
  return repo;
}
