import { type ClaimState, hasLabel, isAssigned } from './claim-state.js';
import { type ClaimCommentOptions, renderClaimComment } from './comment.js';
import { type GraceHold, graceHold } from './grace.js';
import { type ClaimComment, isStale } from './liveness.js';
import { sameName } from './names.js';
import type { IdentityKind } from './public-identity.js';
import type { AssigneeMode, ClaimMarker } from './types.js';

/** A session asking for an issue, as both the client and the claims API take it. */
interface ClaimAsk extends Pick<ClaimCommentOptions, 'note' | 'client'> {
  readonly session: string;
  readonly lane: string;
  readonly branch: string;
  /** The account that writes the claim comment: its author. */
  readonly login: string;
  /** The claim's path line (docs/protocol.md §10), already checked. */
  readonly paths?: readonly string[] | undefined;
}

/**
 * How the identities of a new claim comment are written: the client writes keyed tags
 * (publicIdentity), the claims API writes them as its caller sent them (docs/protocol.md §8).
 */
export type Publish = (kind: IdentityKind, value: string) => string;

/** What asking for an issue comes to, read off one state of it. */
export type ClaimDecision =
  | { readonly kind: 'closed' }
  /** The asking session holds it already. */
  | { readonly kind: 'resume'; readonly holder: ClaimComment }
  /** Another session holds it. */
  | { readonly kind: 'held'; readonly holder: ClaimComment }
  /** A stale claim of another session is in its grace (docs/protocol.md §17): wait for its end. */
  | { readonly kind: 'in-grace'; readonly hold: GraceHold }
  /** Nobody holds it: the claim comment to post, a takeover of `stale` when any remain. */
  | {
      readonly kind: 'post';
      readonly marker: ClaimMarker;
      readonly body: string;
      /** The unreleased claims this one takes over, all stale, oldest (the replaced) first. */
      readonly stale: readonly ClaimComment[];
      /**
       * Among `stale`, the asking session's own claim in its grace, which the new claim takes
       * over (docs/protocol.md §17): finalised as handed over, not abandoned.
       */
      readonly reclaimed?: ClaimComment;
      /** What the claim's writes change on the issue, so a failure can undo exactly that. */
      readonly changes: { readonly addedLabel: boolean; readonly assigned: boolean };
    };

/**
 * The one decision of claiming an issue (docs/protocol.md §3, §4), for the client's direct
 * mode and the claims API alike: refused when closed, resumed when the asking session holds
 * it (`own` says which claims are its), refused while another holds it, otherwise a new
 * claim comment: a takeover naming the oldest stale claim, with the assignee mode seeded as
 * §4 says. A stale claim in its grace (§17) refuses every session but its own, whose new
 * claim takes over from it. Pure.
 */
export function judgeAttempt(
  state: ClaimState,
  ask: ClaimAsk,
  own: (claim: ClaimComment) => boolean,
  publish: Publish,
  now: Date,
): ClaimDecision {
  if (!state.thread.open) return { kind: 'closed' };
  const { holder } = state;
  if (holder) return { kind: own(holder) ? 'resume' : 'held', holder };
  const { labels, assign, staleAfterMs } = state.config;
  const { login } = ask;
  const hold = graceHold(state.claims, state.thread, state.config, state.now);
  const owners = hold !== null && own(hold.claim) && sameName(hold.claim.comment.author, login);
  if (hold && !owners) return { kind: 'in-grace', hold };
  // With no holder on an open issue every unreleased claim is stale (docs/protocol.md §3);
  // each is finalised, and the oldest, the one that held the issue, is named as replaced.
  const stale = state.claims.filter(
    (claim) => claim.marker.stage !== 'released' && isStale(claim, staleAfterMs, state.now),
  );
  const replaced = stale[0];
  const wasAssigned = isAssigned(state, login);
  // A takeover of a stale claim the same account wrote, whose assignment it added, keeps
  // `claim`: the assignment is still the claim's to remove on release.
  const inherits = stale.some(
    (claim) => sameName(claim.comment.author, login) && claim.marker.assignee === 'claim',
  );
  const mode: AssigneeMode | undefined = assign
    ? !wasAssigned || inherits
      ? 'claim'
      : 'before'
    : undefined;
  const marker: ClaimMarker = {
    session: publish('session', ask.session),
    lane: publish('lane', ask.lane),
    branch: ask.branch,
    started: now,
    updated: now,
    stage: 'claimed',
    ...(mode ? { assignee: mode } : {}),
  };
  const body = renderClaimComment(marker, {
    note: ask.note,
    client: ask.client,
    paths: ask.paths,
    takeover: replaced && {
      commentId: replaced.comment.id,
      session: publish('session', replaced.marker.session),
    },
  });
  const changes = {
    addedLabel: !hasLabel(state, labels.inProgress),
    assigned: mode === 'claim' && !wasAssigned,
  };
  return { kind: 'post', marker, body, stale, changes, ...(hold ? { reclaimed: hold.claim } : {}) };
}
