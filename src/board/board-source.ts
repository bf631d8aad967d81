import type { ChangeReview, ClaimChange } from '../store/board-records.js';

/**
 * The repositories one user may see on the board: `installationId/owner/name`, lower case
 * (docs/protocol.md §14: reached by both the app's installations and the user).
 */
export type VisibleRepos = ReadonlySet<string>;

/** The visibility key of one repository of one installation. */
export function visibleRepoKey(installationId: number, fullName: string): string {
  return `${installationId}/${fullName.toLowerCase()}`;
}

/** The stage column of an issue in review that nobody holds (§17): no claim, no stage of one. */
export const REVIEW_STAGE = 'needs-review';

/**
 * One row of the board: a live claim of the open-issue index with its issue (times
 * `YYYY-MM-DDTHH:MM:SSZ`, as the claim object of docs/protocol.md §8 has them).
 */
export interface BoardClaim {
  readonly installationId: number;
  /** `owner/name`. */
  readonly repo: string;
  readonly number: number;
  readonly title: string;
  /** The page on GitHub. */
  readonly url: string;
  /**
   * An agent's claim comment, a person's assignment (§16) or a hosted agent (§18); `review`:
   * an issue in review that nobody holds (§17), its holder the stale claim's author if known.
   */
  readonly kind: 'agent' | 'person' | 'hosted' | 'review';
  /**
   * docs/protocol.md §17: present when the issue carries the needs-review label: the work its
   * stale session left, or null when the board does not know it (the label added by hand).
   */
  readonly review?: ChangeReview | null;
  /** Null for a person: no comment holds the issue. */
  readonly commentId: number | null;
  /** The claim comment's page on GitHub; the for a person. */
  readonly commentUrl: string;
  readonly holder: string;
  /** Empty when GitHub gave none. */
  readonly avatarUrl: string;
  /** Null for a person, who has no session or branch. */
  readonly session: string | null;
  readonly branch: string | null;
  readonly stage: string;
  /** The claim's path entries (docs/protocol.md §10); empty when it names none. */
  readonly paths: readonly string[];
  readonly started: string;
  readonly heartbeat: string;
  /** Null for a person's claim that does not expire (pinned, or by `people.expire`). */
  readonly staleAt: string | null;
}

/** Where the claims board reads its facts; a page view costs no GitHub call. */
export interface BoardSource {
  /** The live claims of the visible repositories: each issue's holder, not yet stale at `now`. */
  liveClaims(visible: VisibleRepos, now: Date): Promise<BoardClaim[]>;
  /** The open issues of the visible repositories in review that nobody holds (§17). */
  reviewRows(visible: VisibleRepos, now: Date): Promise<BoardClaim[]>;
  /**
   * How many open issues of each visible repository nobody holds, keyed like VisibleRepos;
   * null when this source has no index of open issues to count from.
   */
  claimableCounts(visible: VisibleRepos): Promise<ReadonlyMap<string, number> | null>;
  /** The expiries, losses and takeovers in the visible repositories since `since`, newest first. */
  recentChanges(visible: VisibleRepos, since: Date): Promise<ClaimChange[]>;
}
