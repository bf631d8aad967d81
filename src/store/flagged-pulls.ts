import type { IssueKey } from '../keys.js';

/**
 * The pull requests each holder flagged (docs/protocol.md §11), checked again once that claim
 * stops holding its paths. Two implementations pass one contract suite.
 */
export interface FlaggedPulls {
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
}
