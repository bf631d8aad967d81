import type { IssueKey, RepoKey } from '../keys.js';

/**
 * The branch index: per repository, each holder under the branch its marker names
 * (docs/protocol.md §11). Two implementations pass one contract suite.
 */
export interface BranchHolders {
  /**
   * Records the issue's holder under the branch its marker names, as its last reconcile found
   * it (docs/protocol.md §11: pushes to that branch renew it, pull requests from it are its
   * work); null removes the issue from its repository's branch index.
   */
  setBranchHolder(key: IssueKey, holder: BranchHolder | null): Promise<void>;
  /** The holders recorded for `branch` in one repository (exact name), by issue number. */
  branchHolders(repo: RepoKey, branch: string): Promise<IndexedBranchHolder[]>;
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
