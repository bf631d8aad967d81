import type { IssueKey } from '../keys.js';
import { compose, composed } from './compose.js';
import { MemoryBoardRecords } from './memory-board-records.js';
import { MemoryCachedReads } from './memory-cached-reads.js';
import { MemoryDeliveryIds } from './memory-delivery-ids.js';
import { MemoryGuardRecords } from './memory-guard-records.js';
import { MemoryIssueRecords } from './memory-issue-records.js';
import { MemoryOpenIssues } from './memory-open-issues.js';
import { MemoryPathHolders } from './memory-path-holders.js';
import { MemoryPeriodicJobs } from './memory-periodic-jobs.js';
import { MemoryRepoQueueSettings } from './memory-repo-queue-settings.js';
import { MemoryUnpublishedEvents } from './memory-unpublished-events.js';
import type { Store } from './store.js';

/** Options of {@link MemoryStore}. */
interface MemoryStoreOptions {
  /** The clock, in epoch milliseconds; tests pass their own to control expiry. */
  readonly now?: () => number;
  /**
   * The most delivery ids kept at once. Past it the soonest-expiring id is forgotten early:
   * a forgotten id only lets a redelivery reconcile again, which is harmless (reconciles are
   * idempotent), while an unbounded map is not.
   */
  readonly maxDeliveryIds?: number;
}

/**
 * The embedded {@link Store}: everything in this process, for a single replica
 * (docs/protocol.md §7, `CLAIMS_REDIS_URL` unset), made of the concerns' memory pairs.
 */
export class MemoryStore
  extends composed<Omit<Store, 'forgetIssue' | 'ping' | 'close'>>()
  implements Store
{
  constructor(options: MemoryStoreOptions = {}) {
    super();
    const now = options.now ?? Date.now;
    compose(this, [
      new MemoryDeliveryIds(now, options.maxDeliveryIds),
      new MemoryPeriodicJobs(now),
      new MemoryIssueRecords(now),
      new MemoryUnpublishedEvents(now),
      new MemoryPathHolders(),
      new MemoryGuardRecords(),
      new MemoryCachedReads(now),
      new MemoryRepoQueueSettings(now),
      new MemoryOpenIssues(),
      new MemoryBoardRecords(),
    ]);
  }

  /** Each concern's own way to hold nothing for the issue; one process, so nothing in between. */
  async forgetIssue(key: IssueKey): Promise<void> {
    await this.setDeadline(key, null);
    await this.setHolder(key, null);
    await this.clearIssueGone(key);
    await this.setAppAssignees(key, []);
    await this.setPendingEvents(key, []);
    await this.setPathHolder(key, null);
    await this.setBranchHolder(key, null);
    await this.takeFlaggedPulls(key, null);
    await this.dropOpenIssue(key);
  }

  async ping(): Promise<boolean> {
    return true;
  }

  /** Nothing to release: the state goes with the process. */
  async close(): Promise<void> {}
}
