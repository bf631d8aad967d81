import type { IssueKey } from '../keys.js';

/**
 * The path-holder index: per repository, the holders that hold paths (docs/protocol.md §10),
 * as their issues' last reconciles found them.
 */
export interface PathHolders {
  /**
   * Records the paths the issue's holder holds, as its last reconcile found them
   * (docs/protocol.md §10); null (or a holder without paths) removes the issue from its
   * repository's index.
   */
  setPathHolder(key: IssueKey, holder: PathHolder | null): Promise<void>;
  /** The path holders of one repository as their reconciles recorded them, by issue number. */
  pathHolders(installationId: number, owner: string, repo: string): Promise<IndexedPathHolder[]>;
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
