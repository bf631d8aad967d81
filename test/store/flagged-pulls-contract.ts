import { describe, expect, it } from 'vitest';
import type { FlaggedPulls } from '../../src/store/flagged-pulls.js';
import type { Store } from '../../src/store/store.js';
import { issue, type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link FlaggedPulls} does (memory and Redis): the app relies on it. */
export function describeFlaggedPullsContract(
  name: string,
  make: MakeStore<FlaggedPulls & Pick<Store, 'forgetIssue'>>,
): void {
  describe(`${name} (FlaggedPulls contract)`, () => {
    let store: FlaggedPulls & Pick<Store, 'forgetIssue'>;
    useStore(make, (made) => {
      store = made;
    });

    describe('pull requests a holder flagged (docs/protocol.md §11)', () => {
      it('takes the pulls flagged by other comments than the one that still holds, once', async () => {
        await store.flagPull(issue(1), 'c10', 40);
        await store.flagPull(issue(1), 'c10', 41);
        await store.flagPull(issue(1), 'c12', 42);
        await store.flagPull(issue(2), 'c20', 43);
        expect(await store.takeFlaggedPulls(issue(1), 'c12')).toEqual([40, 41]);
        expect(await store.takeFlaggedPulls(issue(1), 'c12')).toEqual([]);
        expect(await store.takeFlaggedPulls(issue(1), null)).toEqual([42]);
        expect(await store.takeFlaggedPulls(issue(2), 'c20')).toEqual([]);
      });

      it('a pull flagged again by the new holder is kept for it', async () => {
        await store.flagPull(issue(1), 'c10', 40);
        await store.flagPull(issue(1), 'c11', 40);
        expect(await store.takeFlaggedPulls(issue(1), 'c11')).toEqual([]);
        expect(await store.takeFlaggedPulls(issue(1), null)).toEqual([40]);
      });

      it('forgetting the issue forgets what it flagged', async () => {
        await store.flagPull(issue(1), 'c10', 40);
        await store.forgetIssue(issue(1));
        expect(await store.takeFlaggedPulls(issue(1), null)).toEqual([]);
      });
    });
  });
}
