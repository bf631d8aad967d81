import { describe, expect, it } from 'vitest';
import type { CachedReads } from '../../src/store/cached-reads.js';
import { type MakeStore, PAST_TTL, TTL, useStore } from './contract-fixture.js';

/** What every {@link CachedReads} does (memory and Redis): the app relies on it. */
export function describeCachedReadsContract(name: string, make: MakeStore<CachedReads>): void {
  describe(`${name} (CachedReads contract)`, () => {
    let store: CachedReads;
    const pass = useStore(make, (made) => {
      store = made;
    });

    describe('answers kept for conditional requests', () => {
      const url = 'https://api.github.com/installation/repositories?per_page=100';

      it('an answer is kept per token scope and URL', async () => {
        await store.setCachedRead('installation:7', url, { etag: 'W/"a"', value: '[1]' }, 60_000);
        expect(await store.cachedRead('installation:7', url)).toEqual({
          etag: 'W/"a"',
          value: '[1]',
        });
        // Another installation's token never sees this ETag, nor another URL.
        expect(await store.cachedRead('installation:8', url)).toBeNull();
        expect(await store.cachedRead('installation:7', `${url}&page=2`)).toBeNull();
      });

      it('a newer answer replaces the one before', async () => {
        await store.setCachedRead('app', url, { etag: '"1"', value: 'a' }, 60_000);
        await store.setCachedRead('app', url, { etag: '"2"', value: 'b' }, 60_000);
        expect(await store.cachedRead('app', url)).toEqual({ etag: '"2"', value: 'b' });
      });

      it('an answer is forgotten after its TTL', async () => {
        await store.setCachedRead('app', url, { etag: '"1"', value: 'a' }, TTL);
        await pass(PAST_TTL);
        expect(await store.cachedRead('app', url)).toBeNull();
      });
    });
  });
}
