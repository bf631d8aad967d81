import type { IssueKey, RepoKey } from '../keys.js';

/**
 * What the pull-request guard keeps (docs/protocol.md §11): per repository, each holder under
 * the branch its marker names, and the pull requests each holder flagged, checked again once
 * that claim stops holding its paths.
 */
export interface GuardRecords {
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
