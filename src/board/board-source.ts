import type { ClaimChange, LiveClaimSummary } from '../store/board-records.js';

/**
 * The repositories one user may see on the board: `installationId/owner/name`, lower case
 * (docs/protocol.md §14: reached by both the app's installations and the user).
 */
export type VisibleRepos = ReadonlySet<string>;

/** The visibility key of one repository of one installation. */
export function visibleRepoKey(installationId: number, fullName: string): string {
  return `${installationId}/${fullName.toLowerCase()}`;
}

/** Where the claims board reads its facts; a page view costs no GitHub call. */
export interface BoardSource {
  /** The live claims of the visible repositories: each issue's holder, not yet stale at `now`. */
  liveClaims(visible: VisibleRepos, now: Date): Promise<LiveClaimSummary[]>;
  /**
   * How many open issues of each visible repository nobody holds, keyed like VisibleRepos;
   * null when this source has no index of open issues to count from.
   */
  claimableCounts(visible: VisibleRepos): Promise<ReadonlyMap<string, number> | null>;
  /** The expiries, losses and takeovers in the visible repositories since `since`, newest first. */
  recentChanges(visible: VisibleRepos, since: Date): Promise<ClaimChange[]>;
}
