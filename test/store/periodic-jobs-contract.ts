import { describe, expect, it } from 'vitest';
import type { PeriodicJobs } from '../../src/store/periodic-jobs.js';
import { at, type MakeStore, PAST_TTL, TTL, useStore } from './contract-fixture.js';

/** What every {@link PeriodicJobs} does (memory and Redis): the app relies on it. */
export function describePeriodicJobsContract(name: string, make: MakeStore<PeriodicJobs>): void {
  describe(`${name} (PeriodicJobs contract)`, () => {
    let store: PeriodicJobs;
    const pass = useStore(make, (made) => {
      store = made;
    });

    describe('locks', () => {
      it('a held lock is not given to anyone else', async () => {
        const token = await store.acquireLock('issue-1', 60_000);
        expect(token).toEqual(expect.any(String));
        expect(await store.acquireLock('issue-1', 60_000)).toBeNull();
        expect(await store.acquireLock('issue-2', 60_000)).toEqual(expect.any(String));
      });

      it('of concurrent acquires exactly one gets the lock', async () => {
        const tokens = await Promise.all(
          Array.from({ length: 10 }, () => store.acquireLock('contended', 60_000)),
        );
        expect(tokens.filter((token) => token !== null)).toHaveLength(1);
      });

      it('only the holder releases a lock', async () => {
        const token = (await store.acquireLock('issue-1', 60_000))!;
        expect(await store.releaseLock('issue-1', 'not-the-token')).toBe(false);
        expect(await store.acquireLock('issue-1', 60_000)).toBeNull();
        expect(await store.releaseLock('issue-1', token)).toBe(true);
        expect(await store.releaseLock('issue-1', token)).toBe(false);
        expect(await store.acquireLock('issue-1', 60_000)).toEqual(expect.any(String));
      });

      it('tokens differ between holders', async () => {
        const first = (await store.acquireLock('issue-1', 60_000))!;
        await store.releaseLock('issue-1', first);
        const second = (await store.acquireLock('issue-1', 60_000))!;
        expect(second).not.toBe(first);
      });

      it('a lock whose holder died expires', async () => {
        await store.acquireLock('issue-1', TTL);
        await pass(PAST_TTL);
        expect(await store.acquireLock('issue-1', 60_000)).toEqual(expect.any(String));
      });

      it('extending keeps a lock past its first ttl', async () => {
        const token = (await store.acquireLock('issue-1', TTL))!;
        expect(await store.extendLock('issue-1', token, 60_000)).toBe(true);
        await pass(PAST_TTL);
        expect(await store.acquireLock('issue-1', 60_000)).toBeNull();
        expect(await store.extendLock('issue-1', 'not-the-token', 60_000)).toBe(false);
      });

      it('an expired holder can neither extend nor release the next holder`s lock', async () => {
        const stale = (await store.acquireLock('issue-1', TTL))!;
        await pass(PAST_TTL);
        expect(await store.extendLock('issue-1', stale, 60_000)).toBe(false);
        const fresh = (await store.acquireLock('issue-1', 60_000))!;
        expect(await store.releaseLock('issue-1', stale)).toBe(false);
        expect(await store.extendLock('issue-1', stale, 60_000)).toBe(false);
        expect(await store.acquireLock('issue-1', 60_000)).toBeNull();
        expect(await store.releaseLock('issue-1', fresh)).toBe(true);
      });
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
