import type { Logger } from 'pino';
import type { Store } from '../store/store.js';

/** GitHub redelivers a webhook for up to three days; a delivery id is remembered that long. */
const DELIVERY_TTL_MS = 3 * 24 * 3_600_000;

/**
 * How long a delivery id is held while its request is being queued, before it is kept for
 * DELIVERY_TTL_MS (stores with two-step recording; see recordDeliveries). It outlasts the
 * webhook path (each Redis command fails within seconds) and is short enough that an id
 * whose request was lost in an outage blocks its redelivery only briefly.
 */
export const DELIVERY_CLAIM_MS = 60_000;

/** How the webhook path records a delivery id around queueing its request. */
export interface DeliveryRecorder {
  /** Records the id; false when it was seen before. Throws when the store cannot tell. */
  begin(deliveryId: string): Promise<boolean>;
  /** The request is queued: keep the id for GitHub's redelivery window. Never throws. */
  commit(deliveryId: string): Promise<void>;
  /** The request was not queued: forget the id so a redelivery is processed. Never throws. */
  abort(deliveryId: string): Promise<void>;
}

/**
 * Records delivery ids so that an outage neither loses an event nor runs one twice.
 *
 * Record-then-queue, with the record undone when queueing fails: queue-then-record would
 * run a duplicate delivery again (it is queued before it is found seen), and recording
 * alone would lose an event whose queueing failed (its redelivery would count as seen).
 * The undo can fail as well (Redis went away between the two steps), and a command whose
 * reply was lost may have been applied. So the id is recorded in two
 * steps: for DELIVERY_CLAIM_MS before the request is queued, for DELIVERY_TTL_MS once it is;
 * whatever happens to the undo, a lost event's id expires within a minute and its
 * redelivery is processed. A failed commit leaves the short record: a redelivery after it
 * runs one more reconcile, which is idempotent.
 *
 * Not covered: a redelivery that reaches another replica while the first still queues it is
 * acknowledged as a duplicate; if that first queueing then fails, the event waits for the
 * next resync.
 */
export function recordDeliveries(store: Store, log: Logger): DeliveryRecorder {
  return {
    begin: (id) => store.markDelivery(id, DELIVERY_CLAIM_MS),
    commit: (id) =>
      store.confirmDelivery(id, DELIVERY_TTL_MS).catch((err: unknown) => {
        log.warn({ err, delivery: id }, 'delivery queued but its id not kept: expires in 1 min');
      }),
    abort: (id) =>
      store.forgetDelivery(id).catch((err: unknown) => {
        log.warn({ err, delivery: id }, 'delivery id not forgotten: it expires in 1 min');
      }),
  };
}
