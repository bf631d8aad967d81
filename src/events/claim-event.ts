import type { AgentClaim, PersonClaim } from '../claims/public-claim.js';

/** The types of outgoing claim events (docs/protocol.md §13). */
const CLAIM_EVENT_TYPES = [
  'claim.held',
  'claim.lost',
  'claim.expired',
  'claim.released',
  'claim.taken-over',
  'claim.administratively-released',
] as const;

/** One type of {@link CLAIM_EVENT_TYPES}. */
export type ClaimEventType = (typeof CLAIM_EVENT_TYPES)[number];

/**
 * A claim as an event describes it (docs/protocol.md §13), with the claim object's `kind`
 * (§16): an agent's comment and marker keys (`started`, `updated` as the marker has them;
 * only `commentId` once it is gone; no `kind` in what an older version kept), or a person's
 * login, issue page and assignment time.
 */
export type EventClaim =
  | (Pick<AgentClaim, 'commentId'> &
      Partial<
        Pick<
          AgentClaim,
          | 'kind'
          | 'url'
          | 'author'
          | 'session'
          | 'lane'
          | 'branch'
          | 'stage'
          | 'started'
          | 'updated'
        >
      >)
  | (Pick<PersonClaim, 'kind' | 'commentId' | 'author' | 'started'> &
      Partial<Pick<PersonClaim, 'url'>>);

/**
 * One outgoing event (docs/protocol.md §13): POSTed as JSON, once per change of a claim, at
 * least once. `id` is derived from the change, so every retry and every replica that derives
 * it sends the same one.
 */
export interface ClaimEvent {
  readonly id: string;
  readonly type: ClaimEventType;
  /** When the app saw the change, `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly at: string;
  /** The installation id. */
  readonly installation: number;
  /** `owner/name`. */
  readonly repository: string;
  /** The issue number. */
  readonly issue: number;
  readonly claim: EventClaim;
  /** The claim that holds the issue now, when another one does (lost, taken over). */
  readonly holder?: EventClaim;
  /** Why, for people: the reason line the app wrote on the comment. */
  readonly reason?: string;
  /** `claim.expired` of a stale claim that left work (docs/protocol.md §17). */
  readonly review?: EventReview;
}

/** The work a stale claim left, as `claim.expired` tells it: `pull` a number or null. */
export interface EventReview {
  readonly branch: string;
  readonly aheadBy: number;
  /** The head commit, 7 characters. */
  readonly head: string;
  readonly pull: number | null;
}
