import type { IssueKey } from '../keys.js';
import type { BoardRecords } from './board-records.js';
import type { CachedReads } from './cached-reads.js';
import type { DeliveryIds } from './delivery-ids.js';
import type { GuardRecords } from './guard-records.js';
import type { IssueRecords } from './issue-records.js';
import type { OpenIssues } from './open-issues.js';
import type { PathHolders } from './path-holders.js';
import type { PeriodicJobs } from './periodic-jobs.js';
import type { RepoQueueSettings } from './repo-queue-settings.js';
import type { UnpublishedEvents } from './unpublished-events.js';

// Re-exported: the keys live in src/keys.ts, the records in their concern's file, and code
// across the app imports them from here.
export type { IndexedClaim, IndexedEntry, IndexedIssue } from './open-issues.js';
export type { IndexedPathHolder } from './path-holders.js';
export type { DeliveryCheckpoint } from './periodic-jobs.js';
export type { RepoName } from './repo-queue-settings.js';

/**
 * The state the app keeps besides GitHub itself. GitHub's threads are the source of truth;
 * everything here can be rebuilt by a resync, so losing it costs API calls, never correctness.
 * One interface per concern, each with a memory pair (one replica) and a Redis pair (many)
 * that pass that concern's contract suite; MemoryStore and RedisStore are made of the pairs.
 */
export interface Store
  extends DeliveryIds,
    PeriodicJobs,
    IssueRecords,
    UnpublishedEvents,
    PathHolders,
    GuardRecords,
    CachedReads,
    RepoQueueSettings,
    OpenIssues,
    BoardRecords {
  /**
   * Forgets everything kept about an issue that no longer exists where it was (deleted, or
   * transferred away): its deadline, holder, path holder, branch holder, flagged pull
   * requests, entry and claim in the open-issue index, assignees, pending events and any
   * 404 noted.
   */
  forgetIssue(key: IssueKey): Promise<void>;
  /** Whether the backing service answers (always true in memory). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
