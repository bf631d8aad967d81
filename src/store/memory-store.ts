import type { IssueKey } from '../keys.js';
import { compose, composed } from './compose.js';
import { MemoryBoardRecords } from './memory-board-records.js';
import { MemoryBranchHolders } from './memory-branch-holders.js';
import { MemoryCachedReads } from './memory-cached-reads.js';
import { MemoryCheckpoints } from './memory-checkpoints.js';
import { MemoryDeadlines } from './memory-deadlines.js';
import { MemoryDeliveryIds } from './memory-delivery-ids.js';
import { MemoryFlaggedPulls } from './memory-flagged-pulls.js';
import { MemoryIssueNotes } from './memory-issue-notes.js';
import { MemoryLocks } from './memory-locks.js';
import { MemoryOpenIssues } from './memory-open-issues.js';
import { MemoryPathHolders } from './memory-path-holders.js';
import { MemoryRepoQueueSettings } from './memory-repo-queue-settings.js';
import { MemoryUnpublishedEvents } from './memory-unpublished-events.js';
import type { Store } from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** The clock, in epoch milliseconds; tests pass their own to control expiry. */
  readonly now?: () => number;
  /**
   * The most delivery ids kept at once. Past it the soonest-expiring id is forgotten early:
   * a forgotten id only lets a redelivery reconcile again, which is harmless (reconciles are
   * idempotent), while an unbounded map is not.
   */
  readonly maxDeliveryIds?: number;
}

/** A memory pair that keeps something per issue: its share of forgetIssue. */
interface ForgetsIssues {
  forget(key: IssueKey): void;
}

/**
 * The embedded {@link Store}: everything in this process, for a single replica
 * (docs/protocol.md §7, `CLAIMS_REDIS_URL` unset), made of the concerns' memory pairs.
 */
export class MemoryStore
  extends composed<Omit<Store, 'forgetIssue' | 'ping' | 'close'>>()
  implements Store
{
  readonly #forgetting: readonly ForgetsIssues[];

  constructor(options: MemoryStoreOptions = {}) {
    super();
    const now = options.now ?? Date.now;
    const forgetting = [
      new MemoryDeadlines(),
      new MemoryIssueNotes(now),
      new MemoryUnpublishedEvents(now),
      new MemoryPathHolders(),
      new MemoryBranchHolders(),
      new MemoryFlaggedPulls(),
      new MemoryOpenIssues(),
    ];
    this.#forgetting = forgetting;
    compose(this, [
      ...forgetting,
      new MemoryDeliveryIds(now, options.maxDeliveryIds),
      new MemoryCheckpoints(),
      new MemoryLocks(now),
      new MemoryCachedReads(now),
      new MemoryRepoQueueSettings(now),
      new MemoryBoardRecords(),
    ]);
  }

  async forgetIssue(key: IssueKey): Promise<void> {
    for (const part of this.#forgetting) part.forget(key);
  }

  async ping(): Promise<boolean> {
    return true;
  }

  /** Nothing to release: the state goes with the process. */
  async close(): Promise<void> {}
}
