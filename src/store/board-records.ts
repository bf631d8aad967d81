/**
 * What the claims board (docs/protocol.md §14) reads from the store: each issue's holder as
 * the last reconcile found it, and a short history of claim changes. Plain JSON-safe data
 * (times as ISO strings), so the Redis store keeps them as they are.
 */

/** The holder of one issue as the last reconcile found it: one row of the board. */
export interface LiveClaimSummary {
  readonly installationId: number;
  /** `owner/name`. */
  readonly repo: string;
  readonly number: number;
  readonly title: string;
  /** The page on GitHub. */
  readonly url: string;
  readonly commentId: number;
  /** The claim comment's page on GitHub. */
  readonly commentUrl: string;
  readonly holder: string;
  readonly avatarUrl: string;
  readonly session: string;
  readonly branch: string;
  readonly stage: string;
  /** The claim's path entries (docs/protocol.md §10); empty when it names none. */
  readonly paths: readonly string[];
  readonly started: string;
  readonly heartbeat: string;
  readonly staleAt: string;
}

/** How a claim ended that the board lists: gone stale, lost a race, or replaced when stale. */
export type ClaimChangeKind = 'expiry' | 'loss' | 'takeover';

/** One finalisation the board lists under "last 24 hours". */
export interface ClaimChange {
  /** `commentId:kind`: one finalisation is recorded once, however often it is reported. */
  readonly id: string;
  readonly kind: ClaimChangeKind;
  readonly at: string;
  readonly installationId: number;
  readonly repo: string;
  readonly number: number;
  readonly title: string;
  readonly url: string;
  readonly commentId: number;
  readonly author: string;
  readonly session: string;
  /** The holder that won (loss) or took over (takeover). */
  readonly by?: { readonly login: string; readonly session: string };
}

/** The history keeps at most this many changes, the newest; older ones are dropped. */
export const CLAIM_CHANGES_CAP = 2000;
