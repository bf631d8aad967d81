import type { ClaimFields, PublicIssue } from '../claims/public-claim.js';
import type { IssueKey, RepoKey } from '../keys.js';

/**
 * The open-issue index: every open issue and its holder's claim as last seen, which the work
 * queue (docs/protocol.md §9) and the claims board (§14) read.
 */
export interface OpenIssues {
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
   * the issue's lock; null: none. And the people waiting for the issue (docs/protocol.md
   * §16), held or not. It replaces whatever the index held: it is the truth.
   */
  setIssueClaim(
    key: IssueKey,
    claim: IndexedClaim | null,
    waitlist?: readonly string[],
  ): Promise<void>;
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
}

/**
 * An open issue as the work queue lists it (docs/protocol.md §9): the issue object named by
 * its key rather than `repo` and `number`.
 */
export type IndexedIssue = Omit<PublicIssue, 'repo' | 'number' | 'state'> & {
  readonly key: IssueKey;
};

/**
 * The holder's claim as last seen: the claim object's facts (docs/protocol.md §8) less what
 * an answer adds when it is read (its issue, an assignee of null), plus what the board shows
 * (the author's avatar, when GitHub gave one) and `commentUpdatedAt`, the comment's
 * `updated_at`, which orders snapshots of one comment ({@link OpenIssues.renewIssueClaim}).
 * Liveness is judged against `staleAt` when the index is read, so an expired claim counts as
 * free at once, without waiting for the sweep.
 */
export type IndexedClaim = WithoutOutcome<ClaimFields> & {
  readonly avatarUrl?: string;
  readonly commentUpdatedAt: string;
  /** The waitlist recorded with the claim, so a heartbeat's renewal keeps it. */
  readonly waitlist?: readonly string[];
};

type WithoutOutcome<T> = T extends unknown ? Omit<T, 'outcome'> : never;

/** An indexed issue, its claim, and who waits for it (absent: nobody). */
export interface IndexedEntry {
  readonly issue: IndexedIssue;
  readonly claim: IndexedClaim | null;
  readonly waitlist?: readonly string[];
}

/**
 * What the index keeps of an issue's holding (both stores keep this shape as JSON): the
 * claim, its waitlist beside it; a waitlist alone while nobody holds the issue; null for
 * neither. A claim an older version wrote has no `kind`: an agent's.
 */
export type HoldRecord = IndexedClaim | { readonly waitlist: readonly string[] };

/** The record of a holder and a waitlist; null: nothing to keep. */
export function holdRecord(
  claim: IndexedClaim | null,
  waitlist: readonly string[] = [],
): HoldRecord | null {
  if (claim === null) return waitlist.length > 0 ? { waitlist } : null;
  const { waitlist: _recorded, ...bare } = claim;
  return (waitlist.length > 0 ? { ...bare, waitlist } : bare) as IndexedClaim;
}

/** The claim and the waitlist of a record; none of either for no record. */
export function holdOf(
  record: HoldRecord | null | undefined,
): Pick<IndexedEntry, 'claim' | 'waitlist'> {
  if (!record) return { claim: null };
  const waiting = record.waitlist?.length ? { waitlist: record.waitlist } : {};
  return { claim: 'author' in record ? record : null, ...waiting };
}
