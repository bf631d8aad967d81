import type { IssueKey } from '../keys.js';

/**
 * The deadline index: when each issue must be reconciled again, read by the sweep
 * (docs/protocol.md §4). Two implementations pass one contract suite.
 */
export interface Deadlines {
  /** Sets the time after which the issue must be reconciled again; null removes it. */
  setDeadline(key: IssueKey, at: Date | null): Promise<void>;
  /** The issues whose deadline is at or before `now`, earliest first, at most `limit`. */
  dueIssues(now: Date, limit: number): Promise<IssueKey[]>;
  /** How many issues the deadline index holds. */
  countDeadlines(): Promise<number>;
}
