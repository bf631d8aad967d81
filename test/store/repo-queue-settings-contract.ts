import { describe, expect, it } from 'vitest';
import type { RepoQueueSettings } from '../../src/store/repo-queue-settings.js';
import { type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link RepoQueueSettings} does (memory and Redis): the app relies on it. */
export function describeRepoQueueSettingsContract(
  name: string,
  make: MakeStore<RepoQueueSettings>,
): void {
  describe(`${name} (RepoQueueSettings contract)`, () => {
    let store: RepoQueueSettings;
    useStore(make, (made) => {
      store = made;
    });

    describe('queue settings', () => {
      it('keeps what each repository’s claims.yml offers; null is nothing claimable, unknown is undefined', async () => {
        const where = { owner: 'acme', repo: 'widgets' };
        expect(await store.queueSettings(where)).toBeUndefined();
        await store.setQueueSettings(where, { labels: ['ready'], exclude: ['wontfix'] });
        await store.setQueueSettings({ owner: 'acme', repo: 'off' }, null);
        expect(await store.queueSettings({ owner: 'ACME', repo: 'Widgets' })).toEqual({
          labels: ['ready'],
          exclude: ['wontfix'],
        });
        expect(await store.queueSettings({ owner: 'acme', repo: 'off' })).toBeNull();
        await store.setQueueSettings(where, null);
        expect(await store.queueSettings(where)).toBeNull();
      });
    });
  });
}
