import type { ClaimEvent } from './claim-event.js';
import { claimEvents, type Reconciled } from './claim-events.js';
import {
  landedOf,
  type PendingEvent,
  type PendingEventStore,
  pendingOf,
} from './pending-events.js';

/** The events of one reconcile, to publish once its plan is applied. */
interface KeptEvents {
  readonly events: readonly ClaimEvent[];
  /** Called once the events are published: nothing of this reconcile is pending any more. */
  published(): Promise<void>;
}

/**
 * The claim events of a reconcile about to apply its plan (docs/protocol.md §13), its
 * finalisations' events kept in the store before anything is written. A reconcile that dies
 * or fails between the write and the publish leaves them there, and the next reconcile of the
 * issue tells those whose write the thread shows. The other events need no keeping: they
 * follow from the holder recorded after the publish, which a failed attempt leaves as it was.
 */
export async function keepClaimEvents(
  store: PendingEventStore,
  reconciled: Reconciled,
): Promise<KeptEvents> {
  const kept = await store.pendingEvents(reconciled.key);
  const landed = landedOf(kept, reconciled.comments);
  const events = claimEvents(reconciled, landed);
  const pending = [...landed, ...pendingOf(reconciled.plan, events.slice(landed.length))];
  if (kept.length > 0 || pending.length > 0) await store.setPendingEvents(reconciled.key, pending);
  return {
    events,
    published: async () => {
      if (pending.length > 0) await store.setPendingEvents(reconciled.key, []);
    },
  };
}

/**
 * Keeps the event of a finalisation about to be written outside a plan (the claims API's
 * administrative release), beside those already kept: the reconcile that follows tells it
 * once the comment shows the write, and counts it as that reconcile's own finalisation, so
 * the holder's end is not also told as a release by its session. Called under the issue's
 * lock, as the reconciles that read and replace the kept events run.
 */
export async function keepFinalisationEvent(
  store: PendingEventStore,
  key: Reconciled['key'],
  pending: PendingEvent,
): Promise<void> {
  const kept = await store.pendingEvents(key);
  const others = kept.filter((p) => p.event.id !== pending.event.id);
  await store.setPendingEvents(key, [...others, pending]);
}
