import { assertTtl } from './assert-ttl.js';
import type { DeliveryIds } from './delivery-ids.js';
import { MinHeap } from './min-heap.js';

interface DeliveryEntry {
  readonly id: string;
  readonly expiresAt: number;
}

/** {@link DeliveryIds} in the process: a map of id to expiry, pruned by a min-heap of expiries. */
export class MemoryDeliveryIds implements DeliveryIds {
  private readonly deliveries = new Map<string, number>();
  private readonly expiries = new MinHeap<DeliveryEntry>((a, b) => a.expiresAt < b.expiresAt);

  /** `maxDeliveryIds`: past it the soonest-expiring id goes (MemoryStoreOptions says why). */
  constructor(
    private readonly now: () => number,
    private readonly maxDeliveryIds = 1_000_000,
  ) {}

  async markDelivery(deliveryId: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const now = this.now();
    while ((this.expiries.peek()?.expiresAt ?? Number.POSITIVE_INFINITY) <= now) {
      this.#forgetSoonest();
    }
    const expiresAt = this.deliveries.get(deliveryId);
    if (expiresAt !== undefined && expiresAt > now) return false;
    this.deliveries.set(deliveryId, now + ttlMs);
    this.expiries.push({ id: deliveryId, expiresAt: now + ttlMs });
    while (this.deliveries.size > this.maxDeliveryIds) this.#forgetSoonest();
    return true;
  }

  async confirmDelivery(deliveryId: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    if (!this.deliveries.has(deliveryId)) return;
    const expiresAt = this.now() + ttlMs;
    this.deliveries.set(deliveryId, expiresAt);
    this.expiries.push({ id: deliveryId, expiresAt });
  }

  async forgetDelivery(deliveryId: string): Promise<void> {
    // Its heap entry no longer matches and is dropped when it surfaces.
    this.deliveries.delete(deliveryId);
  }

  #forgetSoonest(): void {
    const entry = this.expiries.pop();
    // The id may have been marked again since this entry was pushed; only the entry that
    // matches the current expiry removes it.
    if (entry !== undefined && this.deliveries.get(entry.id) === entry.expiresAt) {
      this.deliveries.delete(entry.id);
    }
  }
}
