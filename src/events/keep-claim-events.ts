import type { Reconciled } from '../reconcile/reconcile.js';
import type { Store } from '../store/store.js';
import type { ClaimEvent } from './claim-event.js';
import { claimEvents } from './claim-events.js';
import { landedOf, pendingOf } from './pending-events.js';

/** The events of one reconcile, to publish once its plan is applied. */
export interface KeptEvents {
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
export async function keepClaimEvents(store: Store, reconciled: Reconciled): Promise<KeptEvents> {
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
