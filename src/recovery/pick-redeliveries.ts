import type { DeliveryCheckpoint } from '../store/store.js';
import type { HookDelivery } from './hook-delivery.js';

/** What one recovery run should redeliver, decided from the deliveries it listed. */
interface RedeliveryPick {
  /**
   * One attempt per delivery to redeliver (its first listed one), oldest delivery first: each
   * of a subscribed event whose guid got no 2xx in any listed attempt (docs/protocol.md §12).
   */
  readonly candidates: readonly HookDelivery[];
}

/** Whether GitHub recorded a 2xx answer of the app for the attempt. */
function succeeded(delivery: HookDelivery): boolean {
  const code = delivery.status_code ?? 0;
  return code >= 200 && code < 300;
}

/**
 * Picks the deliveries to redeliver from `listed` (newest first, as GitHub lists them, back
 * to the checkpoint). Pure: the caller lists, redelivers and moves the checkpoint.
 */
export function pickRedeliveries(
  listed: readonly HookDelivery[],
  subscribed: (event: string, action: string | null) => boolean,
): RedeliveryPick {
  const delivered = new Set<string>();
  for (const delivery of listed) if (succeeded(delivery)) delivered.add(delivery.guid);
  const first = new Map<string, HookDelivery>();
  for (const delivery of listed) {
    if (delivered.has(delivery.guid)) continue;
    if (!subscribed(delivery.event, delivery.action ?? null)) continue;
    const seen = first.get(delivery.guid);
    if (seen === undefined || delivery.id < seen.id) first.set(delivery.guid, delivery);
  }
  return { candidates: [...first.values()].sort((a, b) => a.id - b.id) };
}

/**
 * Where the next run lists back to: the newest delivery listed when every candidate was
 * redelivered; else just before the oldest one left over (capped by `CLAIMS_REDELIVER_MAX`
 * or refused), so the next run sees it again. Null when nothing was listed and nothing is
 * left: the checkpoint stays where it was.
 */
export function nextCheckpoint(
  listed: readonly HookDelivery[],
  leftOver: readonly HookDelivery[],
): DeliveryCheckpoint | null {
  const oldestLeft = leftOver.reduce<HookDelivery | undefined>(
    (oldest, d) => (oldest === undefined || d.id < oldest.id ? d : oldest),
    undefined,
  );
  if (oldestLeft !== undefined) {
    return { id: oldestLeft.id - 1, deliveredAt: new Date(oldestLeft.delivered_at) };
  }
  const newest = listed.reduce<HookDelivery | undefined>(
    (max, d) => (max === undefined || d.id > max.id ? d : max),
    undefined,
  );
  return newest === undefined
    ? null
    : { id: newest.id, deliveredAt: new Date(newest.delivered_at) };
}
