import { createHash } from 'node:crypto';
import { formatClaimTime, parseClaimMarker } from '../claims/marker.js';
import type { HolderSummary, Plan } from '../claims/plan.js';
import type { ThreadComment } from '../claims/types.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import type { ClaimEvent, ClaimEventType, EventClaim, EventReview } from './claim-event.js';
import { type HolderRef, holderRef, personOf } from './holder-ref.js';
import type { PendingEvent } from './pending-events.js';

/** What one reconcile saw and decided, from which its claim events follow. */
export interface Reconciled {
  readonly key: IssueKey;
  readonly comments: readonly ThreadComment[];
  readonly plan: Plan;
  /** The holder the reconcile before this one recorded ({@link holderRef}), or null. */
  readonly previousHolder: HolderRef | null;
  readonly now: Date;
}

/** Why a finalisation is an event, and which. `release-final` re-finalises: no change. */
const FINALISED: Readonly<Record<string, { type: ClaimEventType; reason: string } | undefined>> = {
  lost: { type: 'claim.lost', reason: 'lost to an older claim' },
  paths: { type: 'claim.lost', reason: 'its paths are held by an older claim' },
  stale: { type: 'claim.expired', reason: 'stale' },
  administrative: {
    type: 'claim.administratively-released',
    reason: 'the status label was removed by a person',
  },
  closed: { type: 'claim.released', reason: 'the issue was closed' },
  person: { type: 'claim.lost', reason: 'a person holds the issue' },
  'handed-over': { type: 'claim.lost', reason: 'a maintainer handed the issue to a person' },
  'needs-review': { type: 'claim.lost', reason: 'the issue needs review' },
  grace: { type: 'claim.lost', reason: "the issue is in grace for its stale holder's session" },
  reclaimed: { type: 'claim.expired', reason: 'stale; its own session claimed again in grace' },
};

/** The finalisations that lose the issue to this issue's holder, whom their event names. */
const TO_HOLDER = new Set(['lost', 'person', 'handed-over', 'grace']);

/**
 * The claim changes of one reconcile (docs/protocol.md §13), derived from its plan and the
 * holder the reconcile before it recorded. Pure.
 *
 * - a finalisation: `lost` (lost a race, or its paths), `expired` (stale),
 *   `administratively-released` (label removed), `released` (issue closed);
 * - a new holder: `held`, or `taken-over` when it replaces a holder this plan expires;
 * - the previous holder gone without a finalisation: `released` (its session released it,
 *   or its comment was deleted).
 *
 * `landed` are finalisations an earlier attempt wrote but did not tell about
 * (`src/events/pending-events.ts`): they come first and count as this plan's own, so a retry
 * tells the same events as an attempt that never failed.
 *
 * The id hashes the issue, the comment, the type and the marker's `updated`: the same change
 * seen twice (a retry, a redelivery, another replica) has one id; a claim that is held
 * again after a heartbeat is a new change.
 */
export function claimEvents(input: Reconciled, landed: readonly PendingEvent[] = []): ClaimEvent[] {
  const { plan, previousHolder } = input;
  const byId = new Map(input.comments.map((c) => [c.id, c]));
  const holder = plan.holder ? holderClaim(plan.holder, byId) : undefined;
  const current = holderRef(plan.holder);
  const events = landed.map(({ event }) => event);
  const finalised = new Set(
    events.flatMap((e) => (e.claim.kind === 'person' ? [] : [e.claim.commentId])),
  );
  let expiredHolder = events.some(
    (e) => e.type === 'claim.expired' && e.claim.commentId === previousHolder,
  );

  for (const action of plan.actions) {
    if (action.kind !== 'finalise' || finalised.has(action.commentId)) continue;
    finalised.add(action.commentId);
    const change = FINALISED[action.reason];
    if (!change) continue;
    const expiry = action.reason === 'stale' || action.reason === 'reclaimed';
    if (expiry && action.commentId === previousHolder) expiredHolder = true;
    const claim = eventClaim(byId.get(action.commentId), action.commentId);
    // A claim that lost its paths lost to another issue's holder, not to this one's.
    const withHolder = TO_HOLDER.has(action.reason) && holder ? { holder } : {};
    const review = action.review && {
      review: { ...action.review, head: action.review.head.slice(0, 7) },
    };
    events.push(
      event(input, change.type, claim, { ...withHolder, reason: change.reason, ...review }),
    );
  }

  // A person's claim has no comment to finalise: it ends when the person is unassigned.
  const personGone =
    typeof previousHolder === 'string' && current !== previousHolder
      ? personEnd(input, previousHolder)
      : undefined;
  if (personGone) {
    events.push(personGone);
    expiredHolder ||= personGone.type === 'claim.expired';
  }

  if (holder && current !== previousHolder) {
    events.push(
      expiredHolder
        ? event(input, 'claim.taken-over', holder, {
            reason: `the stale holder ${typeof previousHolder === 'string' ? `@${personOf(previousHolder).login}` : `in comment ${previousHolder}`} was replaced`,
          })
        : event(input, 'claim.held', holder, {}),
    );
  }

  if (
    typeof previousHolder === 'number' &&
    current !== previousHolder &&
    !finalised.has(previousHolder)
  ) {
    const comment = byId.get(previousHolder);
    const marker = comment ? parseClaimMarker(comment.body) : null;
    if (!comment) {
      events.push(
        event(
          input,
          'claim.released',
          { kind: 'agent', commentId: previousHolder },
          {
            reason: 'its comment was deleted',
          },
        ),
      );
    } else if (marker?.stage === 'released') {
      events.push(
        event(input, 'claim.released', eventClaim(comment, previousHolder), {
          reason: `released by its session${marker.outcome ? ` (${marker.outcome})` : ''}`,
        }),
      );
    }
  }
  return events;
}

/** The holder as an event names it: an agent's comment as the thread showed it, or a person. */
function holderClaim(holder: HolderSummary, byId: ReadonlyMap<number, ThreadComment>): EventClaim {
  if (holder.kind === 'agent') return eventClaim(byId.get(holder.commentId), holder.commentId);
  return {
    kind: 'person',
    commentId: null,
    ...(holder.url ? { url: holder.url } : {}),
    author: holder.author,
    started: formatClaimTime(holder.started),
  };
}

/**
 * The end of a person's claim that held the issue before this reconcile: expired when the
 * app's expiry note for it is in the thread or in this plan (docs/protocol.md §16), else
 * released (the person released it, or was unassigned).
 */
function personEnd(input: Reconciled, ref: string): ClaimEvent {
  const { login, started } = personOf(ref);
  const claim: EventClaim = { kind: 'person', commentId: null, author: login, started };
  // The expiry note's hidden tag (src/people/): `claim-warden:people expired=<login> since=…`.
  const tag = `claim-warden:people expired=${login} `;
  const notes = [
    ...input.plan.actions.flatMap((a) => (a.kind === 'post-note' ? [a.body] : [])),
    ...input.comments.filter((c) => formatClaimTime(c.createdAt) >= started).map((c) => c.body),
  ];
  return notes.some((body) => body.toLowerCase().includes(tag))
    ? event(input, 'claim.expired', claim, { reason: 'stale: unassigned' })
    : event(input, 'claim.released', claim, { reason: 'unassigned' });
}

/**
 * The event of a finalisation the app writes outside a reconcile's plan: the claims API's
 * administrative release (docs/protocol.md §8). Its id derives as a plan's would.
 */
export function finalisationEvent(
  at: Pick<Reconciled, 'key' | 'now'>,
  comment: ThreadComment,
  type: ClaimEventType,
  reason: string,
): ClaimEvent {
  return event(at, type, eventClaim(comment, comment.id), { reason });
}

function event(
  input: Pick<Reconciled, 'key' | 'now'>,
  type: ClaimEventType,
  claim: EventClaim,
  extra: { holder?: EventClaim; reason?: string; review?: EventReview },
): ClaimEvent {
  const { key } = input;
  const repository = `${key.owner}/${key.repo}`;
  return {
    id: eventId(issueKeyString(key), claim, type),
    type,
    at: formatClaimTime(input.now),
    installation: key.installationId,
    repository,
    issue: key.number,
    claim,
    ...extra,
  };
}

/**
 * A uuid-shaped hash of the change: comment, type and marker `updated`; for a person, their
 * login, the type and the assignment's time.
 */
function eventId(issue: string, claim: EventClaim, type: ClaimEventType): string {
  const change =
    claim.kind === 'person'
      ? `person:${claim.author.toLowerCase()}\n${type}\n${claim.started}`
      : `${claim.commentId}\n${type}\n${claim.updated ?? ''}`;
  const hex = createHash('sha256').update(`${issue}\n${change}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The claim of a comment as the thread showed it; only the id when it is gone. */
function eventClaim(comment: ThreadComment | undefined, commentId: number): EventClaim {
  const marker = comment ? parseClaimMarker(comment.body) : null;
  if (!comment || !marker) return { kind: 'agent', commentId };
  return {
    kind: 'agent',
    commentId,
    ...(comment.url ? { url: comment.url } : {}),
    author: comment.author,
    session: marker.session,
    lane: marker.lane,
    branch: marker.branch,
    stage: marker.stage,
    started: formatClaimTime(marker.started),
    updated: formatClaimTime(marker.updated),
  };
}
