import type { Plan } from '../claims/plan.js';
import type { ThreadComment } from '../claims/types.js';
import type { IssueKey } from '../keys.js';
import type { ClaimEvent } from './claim-event.js';

/**
 * The event of a finalisation, kept in the store from before the finalisation is written
 * until the event is published (docs/protocol.md §13, at least once). A finalised comment no
 * longer needs finalising, so a reconcile retried after the write landed plans nothing for it
 * and could not tell about it; the kept event is told instead, once the thread shows the write.
 */
export interface PendingEvent {
  readonly event: ClaimEvent;
  /** The first line the finalisation writes: its marker. The comment showing it is proof. */
  readonly marker: string;
}

/** Where pending events are kept (the app's `Store`); declared here, so events needs no store. */
export interface PendingEventStore {
  setPendingEvents(key: IssueKey, pending: readonly PendingEvent[]): Promise<void>;
  pendingEvents(key: IssueKey): Promise<PendingEvent[]>;
}

/** The events of `plan`'s finalisations, each with the marker line its write puts in place. */
export function pendingOf(plan: Plan, events: readonly ClaimEvent[]): PendingEvent[] {
  const markers = new Map<number, string>();
  for (const action of plan.actions) {
    if (action.kind === 'finalise') markers.set(action.commentId, firstLine(action.body));
  }
  const pending: PendingEvent[] = [];
  for (const event of events) {
    // A person's claim has no comment to finalise: nothing of it is kept.
    if (event.claim.commentId === null) continue;
    const marker = markers.get(event.claim.commentId);
    if (marker !== undefined && isFinalisation(event)) pending.push({ event, marker });
  }
  return pending;
}

/**
 * The kept events whose finalisation the thread shows written. One whose write never landed
 * is dropped: its comment is still live, so this reconcile decides about it afresh (and, when
 * it finalises it again, derives the same event with the same id).
 */
export function landedOf(
  pending: readonly PendingEvent[],
  comments: readonly ThreadComment[],
): PendingEvent[] {
  const byId = new Map(comments.map((c) => [c.id, c]));
  return pending.filter(({ event, marker }) => {
    if (event.claim.commentId === null) return false;
    const comment = byId.get(event.claim.commentId);
    return comment !== undefined && firstLine(comment.body) === marker;
  });
}

/** Whether an event tells of a finalisation (not of a new holder or a session's release). */
function isFinalisation(event: ClaimEvent): boolean {
  return event.type !== 'claim.held' && event.type !== 'claim.taken-over';
}

/** The marker line of a comment body: what {@link PendingEvent.marker} is compared with. */
export function firstLine(body: string): string {
  const end = body.indexOf('\n');
  return (end === -1 ? body : body.slice(0, end)).trimEnd();
}
