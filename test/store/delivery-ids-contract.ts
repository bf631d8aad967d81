import { describe, expect, it } from 'vitest';
import type { DeliveryIds } from '../../src/store/delivery-ids.js';
import { type MakeStore, PAST_TTL, TTL, useStore } from './contract-fixture.js';

/** What every {@link DeliveryIds} does (memory and Redis): the app relies on it. */
export function describeDeliveryIdsContract(name: string, make: MakeStore<DeliveryIds>): void {
  describe(`${name} (DeliveryIds contract)`, () => {
    let store: DeliveryIds;
    const pass = useStore(make, (made) => {
      store = made;
    });

    describe('delivery ids', () => {
      it('a delivery id is new the first time and a duplicate after', async () => {
        expect(await store.markDelivery('d-1', 60_000)).toBe(true);
        expect(await store.markDelivery('d-1', 60_000)).toBe(false);
        expect(await store.markDelivery('d-2', 60_000)).toBe(true);
      });

      it('of concurrent marks of one id exactly one wins', async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, () => store.markDelivery('d-race', 60_000)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('a delivery id is forgotten after its ttl', async () => {
        expect(await store.markDelivery('d-ttl', TTL)).toBe(true);
        await pass(PAST_TTL);
        expect(await store.markDelivery('d-ttl', TTL)).toBe(true);
      });

      it('a ttl that is not positive is refused', async () => {
        await expect(store.markDelivery('d-zero', 0)).rejects.toThrow(RangeError);
      });

      it('a confirmed delivery id is kept for its new ttl', async () => {
        expect(await store.markDelivery('d-confirm', TTL)).toBe(true);
        await store.confirmDelivery('d-confirm', 60_000);
        await pass(PAST_TTL);
        expect(await store.markDelivery('d-confirm', TTL)).toBe(false);
      });

      it('a forgotten delivery id is new again', async () => {
        expect(await store.markDelivery('d-forget', 60_000)).toBe(true);
        await store.forgetDelivery('d-forget');
        expect(await store.markDelivery('d-forget', 60_000)).toBe(true);
      });

      it('confirming an id that was never recorded does not record it', async () => {
        await store.confirmDelivery('d-never', 60_000);
        expect(await store.markDelivery('d-never', 60_000)).toBe(true);
      });
    });
  });
}
