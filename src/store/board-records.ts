/**
 * The claims board's history (docs/protocol.md §14): the expiries, losses and takeovers the
 * reconciles wrote. Plain JSON-safe data (times as ISO strings), so the Redis store keeps it
 * as it is. The board's rows are the open-issue index's live claims (Store.openIssues).
 */
export interface BoardRecords {
  /**
   * Appends a claim change to the board's history, kept to the newest CLAIM_CHANGES_CAP; a
   * change whose id is recorded already is not added twice.
   */
  recordClaimChange(change: ClaimChange): Promise<void>;
  /** The recorded changes at or after `since`, newest first. */
  claimChanges(since: Date): Promise<ClaimChange[]>;
}

/** How a claim ended that the board lists: gone stale, lost a race, or replaced when stale. */
type ClaimChangeKind = 'expiry' | 'loss' | 'takeover';

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
  /**
   * The holder that won (loss) or took over (takeover): an agent's session, or a person
   * (docs/protocol.md §16), who has none.
   */
  readonly by?:
    | { readonly login: string; readonly session: string; readonly kind?: 'agent' }
    | { readonly login: string; readonly kind: 'person' | 'hosted' };
  /**
   * docs/protocol.md §17: the work a stale claim left that sent its issue to review, as the
   * `claim.expired` event names it (`head` 7 characters, `pull` a number or null).
   */
  readonly review?: ChangeReview;
}

/** The work of a stale claim whose issue went to review (docs/protocol.md §17). */
export interface ChangeReview {
  readonly branch: string;
  readonly aheadBy: number;
  readonly head: string;
  readonly pull: number | null;
}

/** The history keeps at most this many changes, the newest; older ones are dropped. */
export const CLAIM_CHANGES_CAP = 2000;
