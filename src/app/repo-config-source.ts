import type { ProbotOctokit } from 'probot';
import { configForFilter } from '../config/config-for-filter.js';
import { loadRepoConfig } from '../config/load-repo-config.js';
import type { RepoConfigResult, ResolvedRepoConfig } from '../config/repo-config.js';
import { RepoConfigCache } from '../config/repo-config-cache.js';

/** A repository, by owner and name. */
type RepoName = { readonly owner: string; readonly repo: string };

/** A repository's claims.yml as the app reads it: cached, and fresh after a push changed it. */
export interface RepoConfigSource {
  /** The repository's config, from the cache or read from GitHub with `octokit`. */
  get(octokit: ProbotOctokit, where: RepoName): Promise<RepoConfigResult>;
  /** The config a webhook filter reads (configForFilter), with the installation's octokit. */
  forFilter(
    repo: RepoName & { installationId: number },
  ): Promise<ResolvedRepoConfig | 'unknown' | null>;
  /** Forgets one repository's config, e.g. after a push that changed it. */
  invalidate(where: RepoName): void;
}

/** What the config source needs. */
interface RepoConfigSourceOptions {
  /** `CLAIMS_CONFIG_CACHE`: how long a read is reused. */
  readonly ttlMs: number;
  /** `CLAIMS_STALE_AFTER`: the stale window where claims.yml does not set one. */
  readonly staleAfterMs: number;
  octokitFor(installationId: number): Promise<ProbotOctokit>;
  /** Called with each fresh read from GitHub (not a cached one) before it is handed out. */
  onRead(where: RepoName, result: RepoConfigResult): Promise<void>;
}

/** Reads claims.yml through one cache per replica (RepoConfigCache). */
export function repoConfigSource(options: RepoConfigSourceOptions): RepoConfigSource {
  const cache = new RepoConfigCache({ ttlMs: options.ttlMs });
  const get = (octokit: ProbotOctokit, where: RepoName) =>
    cache.get(where, async () => {
      const result = await loadRepoConfig(octokit, where, { staleAfterMs: options.staleAfterMs });
      await options.onRead(where, result);
      return result;
    });
  return {
    get,
    forFilter: async (repo) =>
      configForFilter(await get(await options.octokitFor(repo.installationId), repo)),
    invalidate: (where) => cache.invalidate(where),
  };
}
