import type { RepoConfigResult, ResolvedRepoConfig } from './repo-config.js';

/**
 * The webhook filters' reading: the config, `unknown` when it could not be read (the event
 * passes on to the reconcile, which fails closed and retries), or null when it is invalid
 * (nothing is written on the repository, so the event can be dropped).
 */
export function configForFilter(result: RepoConfigResult): ResolvedRepoConfig | 'unknown' | null {
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      return result.config;
    case 'invalid':
      return null;
    case 'unreadable':
      return 'unknown';
  }
}
