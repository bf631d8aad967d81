/**
 * docs/protocol.md §17 "stale work with commits goes to review": what a stale claim's branch
 * holds that the default branch lacks, as the edge read it (compare, then open pull requests).
 */
export interface BranchWork {
  readonly branch: string;
  /** Commits the default branch lacks (`ahead_by`); 0 with an open pull request only. */
  readonly aheadBy: number;
  /** The branch's head commit (full SHA). */
  readonly head: string;
  /** The open pull request from the branch, or null. */
  readonly pull: number | null;
}

/**
 * The review facts of one issue: for each stale, unreleased claim whose branch the edge read
 * ({@link reviewReads}), its work, or null when the branch has none (404, not ahead, no open
 * pull request). Absent from IssueFacts: nothing was read, and stale claims go back to the
 * queue as before review existed (the client's own planning).
 */
export type ReviewFacts = ReadonlyMap<number, BranchWork | null>;
