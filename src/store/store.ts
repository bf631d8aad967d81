import type { ClaimChange, LiveClaimSummary } from './board-records.js';

/** One issue of one installation: the unit the app reconciles, locks and indexes. */
export interface IssueKey {
  readonly installationId: number;
  readonly owner: string;
  readonly repo: string;
  readonly number: number;
}

/** A stable string form of an issue key, used for locks, job ids and index members. */
export function issueKeyString(key: IssueKey): string {
  return `${key.installationId}/${key.owner}/${key.repo}#${key.number}`;
}

/** Parses the string form written by {@link issueKeyString}; null when it is not one. */
export function parseIssueKeyString(text: string): IssueKey | null {
  const match = /^(\d+)\/([^/]+)\/([^/#]+)#(\d+)$/.exec(text);
  if (!match) return null;
  return {
    installationId: Number(match[1]),
    owner: match[2]!,
    repo: match[3]!,
    number: Number(match[4]),
  };
}

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

  /** The resync checkpoint of one repository: comments updated before it were reconciled. */
  getCheckpoint(installationId: number, owner: string, repo: string): Promise<Date | null>;
  setCheckpoint(installationId: number, owner: string, repo: string, at: Date): Promise<void>;

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

  /** The claims board's row of the issue (its holder as last reconciled); null removes it. */
  setLiveClaimSummary(key: IssueKey, summary: LiveClaimSummary | null): Promise<void>;
  /** The board row of one issue, or null. */
  liveClaimSummary(key: IssueKey): Promise<LiveClaimSummary | null>;
  /** Every recorded board row, in no particular order. */
  liveClaimSummaries(): Promise<LiveClaimSummary[]>;
  /**
   * Appends a claim change to the board's history, kept to the newest CLAIM_CHANGES_CAP; a
   * change whose id is recorded already is not added twice.
   */
  recordClaimChange(change: ClaimChange): Promise<void>;
  /** The recorded changes at or after `since`, newest first. */
  claimChanges(since: Date): Promise<ClaimChange[]>;
}
