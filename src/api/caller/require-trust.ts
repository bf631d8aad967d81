import { ApiError } from '../answers/api-error.js';
import type { ApiDeps } from './api-deps.js';
import type { Caller } from './authenticate.js';
import { type InstalledRepo, mayClaim } from './repo-access.js';

/**
 * docs/protocol.md §8 "Trust": claiming, heartbeats and releases of one's own claim need
 * `write`, `maintain` or `admin` (read from `role_name` with the app's token); anyone else is
 * 403 NOT_TRUSTED. Called once the caller is known to read the repository and before the
 * issue's lock is taken, so an untrusted caller neither waits on nor holds it, and learns
 * nothing of the issue (not even whether it exists).
 */
export async function requireTrust(
  deps: ApiDeps,
  caller: Caller,
  repo: InstalledRepo,
): Promise<void> {
  const role = await deps.access.roleOf(repo, caller.login);
  if (mayClaim(role)) return;
  throw new ApiError(
    403,
    'NOT_TRUSTED',
    `@${caller.login} has the role ${role.roleName} on ${repo.owner}/${repo.repo}; claims, heartbeats and releases need write, maintain or admin: ask a maintainer for access`,
  );
}
