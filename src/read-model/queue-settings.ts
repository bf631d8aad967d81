import type { Logger } from 'pino';
import { type QueueSettings, queueSettings, type RepoConfigResult } from '../config/repo-config.js';
import type { RepoName, Store } from '../store/store.js';

/**
 * What a read of claims.yml says the work queue offers (docs/protocol.md §9): null where
 * nothing is claimable (the file is invalid, or `enabled: false`, where the claim route
 * refuses); undefined when the file could not be read, which proves nothing.
 */
export function claimableSettings(result: RepoConfigResult): QueueSettings | null | undefined {
  switch (result.kind) {
    case 'unreadable':
      return undefined;
    case 'invalid':
      return null;
    default:
      return result.config.enabled ? queueSettings(result.config) : null;
  }
}

/**
 * Records what a fresh read of claims.yml says the queue offers, so a queue query needs no
 * GitHub call for a repository the app read lately (reconciles, the guard and the resync read
 * the config). Derived state: a store error only logs.
 */
export async function rememberQueueSettings(
  deps: { store: Store; log: Logger },
  repo: RepoName,
  result: RepoConfigResult,
): Promise<void> {
  const settings = claimableSettings(result);
  if (settings === undefined) return;
  await deps.store.setQueueSettings(repo, settings).catch((err: unknown) => {
    deps.log.warn({ err, repo: `${repo.owner}/${repo.repo}` }, 'queue settings not recorded');
  });
}
