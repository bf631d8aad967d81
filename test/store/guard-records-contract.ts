import { describe, expect, it } from 'vitest';
import type { GuardRecords } from '../../src/store/guard-records.js';
import type { Store } from '../../src/store/store.js';
import { at, issue, type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link GuardRecords} does (memory and Redis): the app relies on it. */
export function describeGuardRecordsContract(
  name: string,
  make: MakeStore<GuardRecords & Pick<Store, 'forgetIssue'>>,
): void {
  describe(`${name} (GuardRecords contract)`, () => {
    let store: GuardRecords & Pick<Store, 'forgetIssue'>;
    useStore(make, (made) => {
      store = made;
    });

    describe('branch holders (docs/protocol.md §11)', () => {
      const holder = (commentId: number, branch: string) => ({
        commentId,
        author: 'alice',
        branch,
        heartbeat: at(commentId),
      });
      const widgets = { installationId: 7, owner: 'acme', repo: 'widgets' };

      it('lists the holders naming a branch, by issue number, and no other branch', async () => {
        await store.setBranchHolder(issue(9), holder(90, 'feat/x'));
        await store.setBranchHolder(issue(3), holder(30, 'feat/x'));
        await store.setBranchHolder(issue(4), holder(40, 'feat/y'));
        expect(await store.branchHolders(widgets, 'feat/x')).toEqual([
          { number: 3, ...holder(30, 'feat/x') },
          { number: 9, ...holder(90, 'feat/x') },
        ]);
        expect(await store.branchHolders(widgets, 'feat/X')).toEqual([]);
        expect(await store.branchHolders({ ...widgets, repo: 'gadgets' }, 'feat/x')).toEqual([]);
        expect(await store.branchHolders({ ...widgets, installationId: 8 }, 'feat/y')).toEqual([]);
      });

      it('setting an issue again moves it to its new branch; null or forgetting removes it', async () => {
        await store.setBranchHolder(issue(1), holder(10, 'feat/a'));
        await store.setBranchHolder(issue(1), holder(11, 'feat/b'));
        expect(await store.branchHolders(widgets, 'feat/a')).toEqual([]);
        expect(await store.branchHolders(widgets, 'feat/b')).toEqual([
          { number: 1, ...holder(11, 'feat/b') },
        ]);
        await store.setBranchHolder(issue(1), null);
        expect(await store.branchHolders(widgets, 'feat/b')).toEqual([]);
        await store.setBranchHolder(issue(2), holder(20, 'feat/c'));
        await store.forgetIssue(issue(2));
        expect(await store.branchHolders(widgets, 'feat/c')).toEqual([]);
      });
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
