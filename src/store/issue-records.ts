import type { HolderRef } from '../events/holder-ref.js';
import type { IssueKey } from '../keys.js';

export type { HolderRef };

/**
 * What the reconciles record per issue: the deadline index the sweep reads (docs/protocol.md
 * §4), and what the last reconcile learnt that GitHub does not say again cheaply (its holder,
 * a first 404 or 410, the logins the app itself assigned).
 */
export interface IssueRecords {
  /** Sets the time after which the issue must be reconciled again; null removes it. */
  setDeadline(key: IssueKey, at: Date | null): Promise<void>;
  /** The issues whose deadline is at or before `now`, earliest first, at most `limit`. */
  dueIssues(now: Date, limit: number): Promise<IssueKey[]>;
  /** How many issues the deadline index holds. */
  countDeadlines(): Promise<number>;

  /** Records the issue's holder as the last reconcile found it ({@link HolderRef}); null: none. */
  setHolder(key: IssueKey, holder: HolderRef | null): Promise<void>;
  /** The holder recorded by the last reconcile of the issue, or null. */
  holderOf(key: IssueKey): Promise<HolderRef | null>;
  /**
   * Records that GitHub answered 404 or 410 on the issue. Resolves true when such an answer was
   * recorded before, within `ttlMs`, and not cleared since: two reconciles in a row saw the
   * issue gone, so it is (docs/protocol.md §6). Resolves false the first time.
   */
  noteIssueGone(key: IssueKey, ttlMs: number): Promise<boolean>;
  /** Forgets a 404 or 410 noted by {@link IssueRecords.noteIssueGone}: it answered since. */
  clearIssueGone(key: IssueKey): Promise<void>;
  /**
   * The logins the app itself assigned to the issue for claims and that are still assigned as
   * far as the app knows; empty when it remembers none (the markers then say who to unassign).
   */
  appAssignees(key: IssueKey): Promise<readonly string[]>;
  /** Replaces the logins the app remembers assigning to the issue; empty forgets them. */
  setAppAssignees(key: IssueKey, logins: readonly string[]): Promise<void>;
}
