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

  // ---- the open-issue index of the work queue (docs/protocol.md §9) --------------------

  /**
   * Records an open issue. A snapshot older than the one indexed (by `updatedAt`) is ignored,
   * so webhooks delivered late or out of order never move the index backwards.
   */
  putOpenIssue(issue: IndexedIssue): Promise<void>;
  /** Removes an issue (closed, deleted, transferred away) and its claim summary. */
  dropOpenIssue(key: IssueKey): Promise<void>;
  /**
   * Makes the repository's part of the index the listed open issues (the resync): listed ones
   * are put, indexed ones not listed are dropped unless updated at or after `listedAt` (an
   * event indexed them while the listing ran).
   */
  replaceOpenIssues(repo: RepoKey, issues: readonly IndexedIssue[], listedAt: Date): Promise<void>;
  /** Records the holder's claim as the last reconcile (or API call) found it; null: none. */
  setIssueClaim(key: IssueKey, claim: IndexedClaim | null): Promise<void>;
  /** Every indexed open issue with its claim summary, in no particular order. */
  openIssues(): Promise<IndexedEntry[]>;
}

/** One repository of one installation. */
export type RepoKey = Omit<IssueKey, 'number'>;

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
 * The holder's claim as last seen, JSON-safe; times `YYYY-MM-DDTHH:MM:SSZ`. Liveness is
 * judged against `staleAt` when the index is read, so an expired claim counts as free at
 * once, without waiting for the sweep.
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
}

/** An indexed issue and its claim summary. */
export interface IndexedEntry {
  readonly issue: IndexedIssue;
  readonly claim: IndexedClaim | null;
}
