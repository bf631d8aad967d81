import type { ProbotOctokit } from 'probot';
import { statusOf } from '../../github/errors.js';
import type { RepoKey } from '../../keys.js';
import { ApiError, unverifiable } from '../answers/api-error.js';
import { type Caller, TOKEN_REFUSED } from './authenticate.js';
import { githubFailure, isGitHubFailure, retryAfterOf } from './caller-github.js';
import { TtlCache } from './ttl-cache.js';

/** The roles GitHub reports in `role_name`; any other is an organisation's custom role. */
const BUILT_IN_ROLES = new Set(['admin', 'maintain', 'write', 'triage', 'read', 'none']);

/** A repository the app is installed on, with the names as GitHub spells them. */
export interface InstalledRepo extends RepoKey {
  readonly octokit: ProbotOctokit;
}

/** Who may do what on repositories, as GitHub answers it, cached for `ttlMs`. */
export interface RepoAccess {
  /** The installation of `owner/repo` and its canonical names; 404 NOT_FOUND when not installed. */
  installed(owner: string, repo: string): Promise<InstalledRepo>;
  /** The caller's role on the repository, read with the app's installation token. */
  roleOf(repo: InstalledRepo, login: string): Promise<Role>;
  /** Whether the caller's own token can read `owner/repo` (docs/protocol.md §9 visibility). */
  canRead(caller: Caller, fullName: string): Promise<boolean>;
  /**
   * As {@link canRead}, for a route about to answer its one 404 (docs/protocol.md §8): only
   * "can read" is taken from what is kept; "cannot read" is asked of GitHub every time, so a
   * repository the queue already found hidden costs what a missing one costs.
   */
  mayRead(caller: Caller, fullName: string): Promise<boolean>;
}

/**
 * docs/protocol.md §8 "Trust": `write`, `maintain` and `admin` may claim. GitHub's older
 * `permission` field reports `maintain` as `write`, so `role_name` is read; a custom role
 * counts by the base permission GitHub reports for it.
 */
export function mayClaim(role: { roleName: string; permission: string }): boolean {
  if (BUILT_IN_ROLES.has(role.roleName))
    return ['write', 'maintain', 'admin'].includes(role.roleName);
  return role.permission === 'write' || role.permission === 'admin';
}

/** docs/protocol.md §8: an administrative release needs `maintain` or `admin`. */
export function mayReleaseForOthers(role: { roleName: string; permission: string }): boolean {
  if (BUILT_IN_ROLES.has(role.roleName))
    return role.roleName === 'maintain' || role.roleName === 'admin';
  return role.permission === 'admin';
}

/** The caller's role as read from GitHub: `role_name` and the older `permission`. */
interface Role {
  readonly roleName: string;
  readonly permission: string;
}

/** Builds the {@link RepoAccess} of one app; caches live as long as it does. */
export function repoAccess(deps: {
  appOctokit: ProbotOctokit;
  octokitFor(installationId: number): Promise<ProbotOctokit>;
  ttlMs: number;
  now: () => Date;
}): RepoAccess {
  const clock = () => deps.now().getTime();
  const installs = new TtlCache<RepoKey>(deps.ttlMs, clock);
  const roles = new TtlCache<Role>(deps.ttlMs, clock);
  const reads = new TtlCache<boolean>(deps.ttlMs, clock);
  const readable = new TtlCache<true>(deps.ttlMs, clock);

  /** Asks GitHub with the caller's own token; only a definite answer returns. */
  const askCanRead = async (caller: Caller, fullName: string): Promise<boolean> => {
    const [owner = '', name = ''] = fullName.split('/');
    let answer: Awaited<ReturnType<Caller['github']>>;
    try {
      answer = await caller.github(
        'GET',
        `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`,
      );
    } catch {
      throw unverifiable(`GitHub did not answer whether your token can read ${fullName}`);
    }
    if (answer.status === 200) return true;
    // Only a definite answer is kept (docs/protocol.md §8, §9): a rate limit or a 5xx says
    // nothing about the token, and one kept as "cannot read" would hide the repository.
    if (isGitHubFailure(answer.status, answer.headers, answer.data)) {
      throw unverifiable(
        `GitHub failed to say whether your token can read ${fullName} (${answer.status})`,
        retryAfterOf(answer.headers, clock()),
      );
    }
    if (answer.status === 401) {
      throw new ApiError(401, 'UNAUTHENTICATED', TOKEN_REFUSED);
    }
    // GitHub: 404 for what the token may not see; 403 where an organisation's policy (SAML
    // SSO, an IP allow list) keeps the token out; 451 for a blocked repository.
    if (answer.status === 404 || answer.status === 403 || answer.status === 451) return false;
    throw unverifiable(
      `GitHub answered ${answer.status} when asked whether your token can read ${fullName}`,
      retryAfterOf(answer.headers, clock()),
    );
  };

  return {
    async installed(owner, repo) {
      const key = await installs.get(`${owner}/${repo}`.toLowerCase(), async () => {
        let installationId: number;
        try {
          const { data } = await deps.appOctokit.rest.apps.getRepoInstallation({ owner, repo });
          installationId = data.id;
        } catch (error) {
          if (statusOf(error) === 404) throw notInstalled(owner, repo);
          throw githubFailure(error, 'GitHub did not say whether the app is installed', clock());
        }
        const octokit = await deps.octokitFor(installationId);
        try {
          const { data } = await octokit.rest.repos.get({ owner, repo });
          return { installationId, owner: data.owner.login, repo: data.name };
        } catch (error) {
          if (statusOf(error) === 404) throw notInstalled(owner, repo);
          throw githubFailure(error, 'GitHub did not answer for the repository', clock());
        }
      });
      return { ...key, octokit: await deps.octokitFor(key.installationId) };
    },

    roleOf(repo, login) {
      const key = `${repo.installationId}/${repo.owner}/${repo.repo}:${login}`.toLowerCase();
      return roles.get(key, async () => {
        try {
          const { data } = await repo.octokit.rest.repos.getCollaboratorPermissionLevel({
            owner: repo.owner,
            repo: repo.repo,
            username: login,
          });
          return { roleName: data.role_name, permission: data.permission };
        } catch (error) {
          // GitHub: 404 when the account is not a collaborator it can report on.
          if (statusOf(error) === 404) return { roleName: 'none', permission: 'none' };
          throw githubFailure(error, 'GitHub did not report your permission', clock());
        }
      });
    },

    canRead(caller, fullName) {
      return reads.get(readKey(caller, fullName), () => askCanRead(caller, fullName));
    },

    async mayRead(caller, fullName) {
      try {
        return await readable.get(readKey(caller, fullName), async () => {
          if (await askCanRead(caller, fullName)) return true;
          // Thrown, so nothing is kept: the next 404 asks GitHub again.
          throw NOT_READABLE;
        });
      } catch (error) {
        if (error === NOT_READABLE) return false;
        throw error;
      }
    },
  };
}

/** The answer of {@link RepoAccess.mayRead} that is never kept. */
const NOT_READABLE = Symbol('not readable');

function readKey(caller: Caller, fullName: string): string {
  return `${caller.tokenHash}:${fullName.toLowerCase()}`;
}

function notInstalled(owner: string, repo: string): ApiError {
  return new ApiError(
    404,
    'NOT_FOUND',
    `${owner}/${repo} is not a repository this app is installed on: check the name, or ask an owner to install the app there`,
  );
}
