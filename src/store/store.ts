import type { QueueSettings } from '../config/repo-config.js';
import type { PendingEvent } from '../events/pending-events.js';
import type { IssueKey, RepoKey } from '../keys.js';
import type { ClaimChange } from './board-records.js';

/**
 * The state the app keeps besides GitHub itself. GitHub's threads are the source of truth;
 * everything here can be rebuilt by a resync, so losing it costs API calls, never correctness.
 * Two implementations pass one contract suite: in memory (one replica) and Redis (many).
 */
export interface Store {
  /**
   * Records a webhook delivery id. Resolves true the first time an id is seen within `ttlMs`
   * (GitHub redelivers for up to 3 days), false for a duplicate. Atomic across replicas.
   */
  markDelivery(deliveryId: string, ttlMs: number): Promise<boolean>;
  /** Keeps a recorded delivery id for `ttlMs` from now (its request was queued). */
  confirmDelivery(deliveryId: string, ttlMs: number): Promise<void>;
  /** Forgets a delivery id, so a redelivery of it is processed (its request was not queued). */
  forgetDelivery(deliveryId: string): Promise<void>;

  /** Sets the time after which the issue must be reconciled again; null removes it. */
  setDeadline(key: IssueKey, at: Date | null): Promise<void>;
  /** The issues whose deadline is at or before `now`, earliest first, at most `limit`. */
  dueIssues(now: Date, limit: number): Promise<IssueKey[]>;
  /** How many issues the deadline index holds. */
  countDeadlines(): Promise<number>;

  /** Records the comment id of the issue's holder as the last reconcile found it; null: none. */
  setHolder(key: IssueKey, commentId: number | null): Promise<void>;
  /** The holder's comment id recorded by the last reconcile of the issue, or null. */
  holderOf(key: IssueKey): Promise<number | null>;

  /**
   * Keeps the events of the finalisations a reconcile is about to write, until they are
   * published (docs/protocol.md §13); an empty list forgets them. Kept for a day at most, as
   * long as an event is retried.
   */
  setPendingEvents(key: IssueKey, pending: readonly PendingEvent[]): Promise<void>;
  /** The events kept by {@link Store.setPendingEvents} for the issue, or none. */
  pendingEvents(key: IssueKey): Promise<PendingEvent[]>;

  /**
   * Records that GitHub answered 404 or 410 on the issue. Resolves true when such an answer was
   * recorded before, within `ttlMs`, and not cleared since: two reconciles in a row saw the
   * issue gone, so it is (docs/protocol.md §6). Resolves false the first time.
   */
  noteIssueGone(key: IssueKey, ttlMs: number): Promise<boolean>;
  /** Forgets a 404 or 410 recorded by {@link Store.noteIssueGone}: the issue answered since. */
  clearIssueGone(key: IssueKey): Promise<void>;

  /**
   * The logins the app itself assigned to the issue for claims and that are still assigned as
   * far as the app knows; empty when it remembers none (the markers then say who to unassign).
   */
  appAssignees(key: IssueKey): Promise<readonly string[]>;
  /** Replaces the logins the app remembers assigning to the issue; empty forgets them. */
  setAppAssignees(key: IssueKey, logins: readonly string[]): Promise<void>;

  /**
   * Forgets everything kept about an issue that no longer exists where it was (deleted, or
   * transferred away): its deadline, holder, path holder, branch holder, flagged pull
   * requests, entry and claim in the open-issue index, assignees, pending events and any
   * 404 noted.
   */
  forgetIssue(key: IssueKey): Promise<void>;

  /** The resync checkpoint of one repository: comments updated before it were reconciled. */
  getCheckpoint(repo: RepoKey): Promise<Date | null>;
  /** Moves the resync checkpoint of one repository to `at`. */
  setCheckpoint(repo: RepoKey, at: Date): Promise<void>;

  /**
   * Takes the named lock for `ttlMs` when nobody holds it. Resolves a token that only the
   * holder knows, or null when it is held. Expiry frees a lock whose holder died.
   */
  acquireLock(name: string, ttlMs: number): Promise<string | null>;
  /** Extends a lock still held with `token`; false when it expired or is held by another. */
  extendLock(name: string, token: string, ttlMs: number): Promise<boolean>;
  /** Releases a lock only when `token` still holds it; false otherwise. */
  releaseLock(name: string, token: string): Promise<boolean>;

  /** Whether the backing service answers (always true in memory). */
  ping(): Promise<boolean>;
  close(): Promise<void>;

  /**
   * Records the paths the issue's holder holds, as its last reconcile found them
   * (docs/protocol.md §10); null (or a holder without paths) removes the issue from its
   * repository's index.
   */
  setPathHolder(key: IssueKey, holder: PathHolder | null): Promise<void>;
  /** The path holders of one repository as their reconciles recorded them, by issue number. */
  pathHolders(installationId: number, owner: string, repo: string): Promise<IndexedPathHolder[]>;

  /**
   * Records the issue's holder under the branch its marker names, as its last reconcile found
   * it (docs/protocol.md §11: pushes to that branch renew it, pull requests from it are its
   * work); null removes the issue from its repository's branch index.
   */
  setBranchHolder(key: IssueKey, holder: BranchHolder | null): Promise<void>;
  /** The holders recorded for `branch` in one repository (exact name), by issue number. */
  branchHolders(repo: RepoKey, branch: string): Promise<IndexedBranchHolder[]>;

  /**
   * Records that the holder of issue `key` named by `by` (a non-empty tag of its comment and
   * paths, src/guard/flagger.ts) flagged pull request `pull` of the same repository
   * (docs/protocol.md §11), so the pull request is checked again once that claim stops
   * holding those paths.
   */
  flagPull(key: IssueKey, by: string, pull: number): Promise<void>;
  /**
   * Removes and returns the pull requests that holders of `key` flagged, except those flagged
   * by `keep` (the holder that still holds the same paths); ascending.
   */
  takeFlaggedPulls(key: IssueKey, keep: string | null): Promise<number[]>;

  /**
   * The newest webhook delivery the delivery recovery examined (docs/protocol.md §12), or
   * null before its first run: the next run lists GitHub's deliveries back to it.
   */
  deliveryCheckpoint(): Promise<DeliveryCheckpoint | null>;
  /** Moves the delivery recovery's checkpoint. */
  setDeliveryCheckpoint(checkpoint: DeliveryCheckpoint): Promise<void>;

  /**
   * What GitHub last answered for `url` read with the token scope `scope` (an installation,
   * or the app's JWT), with the ETag it gave, or null. Kept per scope, so a read made with
   * one installation's token never sends another's ETag (nor reuses its answer).
   */
  cachedRead(scope: string, url: string): Promise<CachedRead | null>;
  /** Keeps an answer and its ETag for `ttlMs`, replacing the one before. */
  setCachedRead(scope: string, url: string, read: CachedRead, ttlMs: number): Promise<void>;

  // ---- the open-issue index: the work queue (docs/protocol.md §9) and the board (§14) ----

  /**
   * Records what the repository's claims.yml says the work queue offers, as a read of it
   * found it; null: nothing is claimable there (the file is invalid, or the app is turned
   * off). Kept for QUEUE_SETTINGS_TTL_MS, renewed by every read, so a queue query costs no
   * GitHub call for the repositories the app has read lately.
   */
  setQueueSettings(repo: RepoName, settings: QueueSettings | null): Promise<void>;
  /** What {@link Store.setQueueSettings} recorded, or undefined when nothing is known. */
  queueSettings(repo: RepoName): Promise<QueueSettings | null | undefined>;

  /**
   * Records an open issue. A snapshot older than the one indexed (by `updatedAt`) is ignored,
   * so webhooks delivered late or out of order never move the index backwards.
   */
  putOpenIssue(issue: IndexedIssue): Promise<void>;
  /** Removes an issue (closed, deleted, transferred away) and its claim. */
  dropOpenIssue(key: IssueKey): Promise<void>;
  /**
   * Makes the repository's part of the index the listed open issues (the resync): listed ones
   * are put, indexed ones not listed are dropped unless updated at or after `listedAt` (an
   * event indexed them while the listing ran).
   */
  replaceOpenIssues(repo: RepoKey, issues: readonly IndexedIssue[], listedAt: Date): Promise<void>;
  /**
   * Records the issue's holder as a reconcile (or an API call's read-back) verified it, under
   * the issue's lock; null: none. It replaces whatever the index held: it is the truth.
   */
  setIssueClaim(key: IssueKey, claim: IndexedClaim | null): Promise<void>;
  /** The claim recorded for the issue, or null. */
  issueClaim(key: IssueKey): Promise<IndexedClaim | null>;
  /**
   * Records `claim`, a later edit of the indexed holder's comment that a webhook reported (a
   * heartbeat left to the sweep), only while the index holds a claim of that same comment read
   * at an older `commentUpdatedAt`. So a delivery that is late, repeated or raced by a
   * reconcile never moves the claim backwards, nor brings back a holder a reconcile removed.
   * Atomic across replicas; resolves whether it was recorded.
   */
  renewIssueClaim(key: IssueKey, claim: IndexedClaim): Promise<boolean>;
  /** Every indexed open issue with its claim, in no particular order. */
  openIssues(): Promise<IndexedEntry[]>;
  /**
   * Appends a claim change to the board's history, kept to the newest CLAIM_CHANGES_CAP; a
   * change whose id is recorded already is not added twice.
   */
  recordClaimChange(change: ClaimChange): Promise<void>;
  /** The recorded changes at or after `since`, newest first. */
  claimChanges(since: Date): Promise<ClaimChange[]>;
}

/** A repository by name, as its claims.yml is read: `owner` and `repo`, case-insensitive. */
export interface RepoName {
  readonly owner: string;
  readonly repo: string;
}

/** How long a repository's queue settings are kept unread (docs/protocol.md §9). */
export const QUEUE_SETTINGS_TTL_MS = 24 * 3_600_000;

/** How long pending events are kept: as long as an event is retried (docs/protocol.md §13). */
export const PENDING_EVENTS_TTL_MS = 24 * 3_600_000;

/** The newest webhook delivery a recovery run examined: GitHub's delivery id and time. */
export interface DeliveryCheckpoint {
  /** GitHub's numeric delivery id; ids grow with time. */
  readonly id: number;
  readonly deliveredAt: Date;
}

/** A GitHub answer kept for a conditional request (`If-None-Match`). */
export interface CachedRead {
  readonly etag: string;
  /** What the reader kept of the answer, as JSON text. */
  readonly value: string;
}

/**
 * An open issue as the work queue lists it (docs/protocol.md §9). Times are
 * `YYYY-MM-DDTHH:MM:SSZ`, so they compare as strings.
 */
export interface IndexedIssue {
  readonly key: IssueKey;
  readonly title: string;
  readonly url: string;
  readonly labels: readonly string[];
  readonly assignees: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * The holder's claim as last seen, JSON-safe; times `YYYY-MM-DDTHH:MM:SSZ`. The one record of
 * a holder that the work queue (docs/protocol.md §9) and the claims board (§14) both read.
 * Liveness is judged against `staleAt` when the index is read, so an expired claim counts as
 * free at once, without waiting for the sweep.
 */
export interface IndexedClaim {
  readonly commentId: number;
  readonly url: string;
  readonly author: string;
  readonly session: string;
  readonly lane: string;
  readonly branch: string;
  readonly stage: string;
  readonly started: string;
  readonly updated: string;
  readonly heartbeat: string;
  readonly staleAt: string;
  readonly assignee?: string;
  /** The entries of a valid path line (docs/protocol.md §10), canonical; absent without one. */
  readonly paths?: readonly string[];
  /** The author's avatar, which the board shows; absent when GitHub gave none. */
  readonly avatarUrl?: string;
  /**
   * The comment's `updated_at` as GitHub gave it with this snapshot: it orders snapshots of
   * one comment, as `updatedAt` orders an issue's ({@link Store.renewIssueClaim}).
   */
  readonly commentUpdatedAt: string;
}

/** An indexed issue and its claim. */
export interface IndexedEntry {
  readonly issue: IndexedIssue;
  readonly claim: IndexedClaim | null;
}

/** The holder of an issue as the branch index keeps it. */
export interface BranchHolder {
  readonly commentId: number;
  readonly author: string;
  readonly branch: string;
  /** Its heartbeat when last reconciled or renewed (docs/protocol.md §3). */
  readonly heartbeat: Date;
}

/** One entry of a repository's branch index: the issue number and its holder. */
export interface IndexedBranchHolder extends BranchHolder {
  readonly number: number;
}

/** The holder of an issue that holds paths, as the path-holder index keeps it. */
export interface PathHolder {
  readonly commentId: number;
  readonly session: string;
  readonly author: string;
  readonly branch: string;
  /** Its heartbeat when last reconciled (docs/protocol.md §3). */
  readonly heartbeat: Date;
  /** Canonical entries (src/claims/paths.ts). */
  readonly paths: readonly string[];
}

/** One entry of a repository's path-holder index: the issue number and its holder. */
export interface IndexedPathHolder extends PathHolder {
  readonly number: number;
}
