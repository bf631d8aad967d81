import type { ResolvedRepoConfig } from '../config/repo-config.js';
import type { RepoKey } from '../keys.js';
import type { ReconcileRequest } from '../queue/queue.js';
import type { Store } from '../store/store.js';
import type { GuardEvent } from './guard-event.js';
import { checkPullRequestOf, configCheckRequestOf, heartbeatRequestOf } from './guard-request.js';
import { pushMayRenew, renewedTooRecently } from './push-renewal.js';

/** What the webhook path needs to weigh a guard event. */
interface GuardWorkDeps {
  readonly store: Store;
  readonly now: () => Date;
  /**
   * The repository's config from the cache (a cached read at most): null when invalid,
   * `unknown` when it could not be read.
   */
  configFor(repo: RepoKey): Promise<ResolvedRepoConfig | 'unknown' | null>;
  /** Forgets the repository's cached config (its claims.yml changed). */
  dropConfig(repo: RepoKey): void;
}

/** The work a guard event comes to: the requests to queue (none: nothing to do). */
export interface GuardWork {
  readonly requests: readonly ReconcileRequest[];
}

/**
 * Weighs a `pull_request` or `push` delivery on the webhook path (docs/protocol.md §11). A
 * pull request is always queued: every one gets its check run (the queued work reads the
 * config and the indexes, and skips the file reads where no path is claimed). A push is
 * weighed from the store's indexes: one to a branch no holder names costs no GitHub call, and
 * one by someone other than the holder's author or a trusted bot, or within a tenth of the
 * stale window of the indexed heartbeat, queues nothing. The queued work verifies on the thread.
 */
export async function guardWork(deps: GuardWorkDeps, event: GuardEvent): Promise<GuardWork> {
  if (event.kind === 'pull') {
    const reason = `pull_request.${event.action}`;
    return { requests: [checkPullRequestOf(event.key, event.head, reason, deps.now())] };
  }
  const requests: ReconcileRequest[] = [];
  if (event.configChanged) {
    // Dropped before the heartbeat below reads it: the new file decides.
    deps.dropConfig(event.repo);
    requests.push(configCheckRequestOf(event.repo, event.sha));
  }
  const holders = await deps.store.branchHolders(event.repo, event.branch);
  if (holders.length === 0) return { requests };
  const config = await deps.configFor(event.repo);
  if (config === null || (config !== 'unknown' && !config.heartbeatOnPush)) return { requests };
  const at = Date.parse(event.at);
  for (const holder of holders) {
    if (config !== 'unknown') {
      if (!pushMayRenew(holder.author, event.pusher, config.trustedBots)) continue;
      // The heartbeat is never later than the marker's `updated`: fresh here is fresh there.
      if (renewedTooRecently(holder.heartbeat, at, config.staleAfterMs)) continue;
    }
    requests.push(
      heartbeatRequestOf(
        { ...event.repo, number: holder.number },
        { branch: event.branch, pusher: event.pusher, at: event.at },
      ),
    );
  }
  return { requests };
}
