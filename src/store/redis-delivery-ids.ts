import { assertTtl } from './assert-ttl.js';
import type { DeliveryIds } from './delivery-ids.js';
import { RedisPart } from './redis-connection.js';

/** {@link DeliveryIds} on Redis: one key per id, `delivery:<id>`, expiring with its TTL. */
export class RedisDeliveryIds extends RedisPart implements DeliveryIds {
  async markDelivery(deliveryId: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    // SET NX is atomic: of two replicas receiving the same delivery, exactly one sees OK.
    return this.setIfAbsent(this.key('delivery', deliveryId), '1', ttlMs);
  }

  /**
   * Keeps a delivery id recorded by markDelivery for `ttlMs` from now. The app records an id
   * for a short while before queueing its request and for GitHub's redelivery window only
   * once it is queued, so an id whose request was lost in an outage cannot block its
   * redelivery for long, whatever became of the commands in flight (see app.ts).
   */
  async confirmDelivery(deliveryId: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    await (await this.client()).pexpire(this.key('delivery', deliveryId), Math.ceil(ttlMs));
  }

  async forgetDelivery(deliveryId: string): Promise<void> {
    await (await this.client()).del(this.key('delivery', deliveryId));
  }
}
