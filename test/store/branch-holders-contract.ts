import { describe, expect, it } from 'vitest';
import type { BranchHolders } from '../../src/store/branch-holders.js';
import type { Store } from '../../src/store/store.js';
import { at, issue, type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link BranchHolders} does (memory and Redis): the app relies on it. */
export function describeBranchHoldersContract(
  name: string,
  make: MakeStore<BranchHolders & Pick<Store, 'forgetIssue'>>,
): void {
  describe(`${name} (BranchHolders contract)`, () => {
    let store: BranchHolders & Pick<Store, 'forgetIssue'>;
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
  });
}
