import { describe, expect, it } from 'vitest';
import type { Checkpoints } from '../../src/store/checkpoints.js';
import { at, type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link Checkpoints} does (memory and Redis): the app relies on it. */
export function describeCheckpointsContract(name: string, make: MakeStore<Checkpoints>): void {
  describe(`${name} (Checkpoints contract)`, () => {
    let store: Checkpoints;
    useStore(make, (made) => {
      store = made;
    });

    describe('checkpoints', () => {
      it('a repository without a checkpoint has none', async () => {
        expect(
          await store.getCheckpoint({ installationId: 7, owner: 'acme', repo: 'widgets' }),
        ).toBeNull();
      });

      it('a checkpoint is kept per repository, to the millisecond, and overwritten', async () => {
        await store.setCheckpoint(
          { installationId: 7, owner: 'acme', repo: 'widgets' },
          new Date('2030-01-01T00:00:00.123Z'),
        );
        await store.setCheckpoint(
          { installationId: 7, owner: 'acme', repo: 'gadgets' },
          new Date('2030-01-02T00:00:00Z'),
        );
        await store.setCheckpoint(
          { installationId: 8, owner: 'acme', repo: 'widgets' },
          new Date('2030-01-03T00:00:00Z'),
        );
        expect(
          await store.getCheckpoint({ installationId: 7, owner: 'acme', repo: 'widgets' }),
        ).toEqual(new Date('2030-01-01T00:00:00.123Z'));
        expect(
          await store.getCheckpoint({ installationId: 7, owner: 'acme', repo: 'gadgets' }),
        ).toEqual(new Date('2030-01-02T00:00:00Z'));
        expect(
          await store.getCheckpoint({ installationId: 8, owner: 'acme', repo: 'widgets' }),
        ).toEqual(new Date('2030-01-03T00:00:00Z'));

        await store.setCheckpoint(
          { installationId: 7, owner: 'acme', repo: 'widgets' },
          new Date('2030-02-01T00:00:00Z'),
        );
        expect(
          await store.getCheckpoint({ installationId: 7, owner: 'acme', repo: 'widgets' }),
        ).toEqual(new Date('2030-02-01T00:00:00Z'));
      });
    });

    describe('delivery recovery checkpoint (docs/protocol.md §12)', () => {
      it('there is none before the first run', async () => {
        expect(await store.deliveryCheckpoint()).toBeNull();
      });

      it('keeps the newest delivery examined, to the millisecond, and overwrites it', async () => {
        await store.setDeliveryCheckpoint({ id: 41, deliveredAt: at(1.5) });
        expect(await store.deliveryCheckpoint()).toEqual({ id: 41, deliveredAt: at(1.5) });
        await store.setDeliveryCheckpoint({ id: 97, deliveredAt: at(60) });
        expect(await store.deliveryCheckpoint()).toEqual({ id: 97, deliveredAt: at(60) });
      });
    });
  });
}
