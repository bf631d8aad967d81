import { describe, expect, it } from 'vitest';
import type { PathHolders } from '../../src/store/path-holders.js';
import { at, issue, type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link PathHolders} does (memory and Redis): the app relies on it. */
export function describePathHoldersContract(name: string, make: MakeStore<PathHolders>): void {
  describe(`${name} (PathHolders contract)`, () => {
    let store: PathHolders;
    useStore(make, (made) => {
      store = made;
    });

    describe('path holders (docs/protocol.md §10)', () => {
      const holder = (commentId: number, paths: string[]) => ({
        commentId,
        session: `h:${String(commentId).padStart(12, '0')}`,
        author: 'alice',
        branch: `feat/${commentId}`,
        heartbeat: at(commentId),
        paths,
      });

      it('lists the holders of a repository with their paths, by issue number', async () => {
        await store.setPathHolder(issue(9), holder(90, ['docs/']));
        await store.setPathHolder(issue(3), holder(30, ['src/a.ts', 'src/b.ts']));
        expect(await store.pathHolders(7, 'acme', 'widgets')).toEqual([
          { number: 3, ...holder(30, ['src/a.ts', 'src/b.ts']) },
          { number: 9, ...holder(90, ['docs/']) },
        ]);
      });

      it('setting an issue again replaces its entry; null or no paths removes it', async () => {
        await store.setPathHolder(issue(1), holder(10, ['a']));
        await store.setPathHolder(issue(1), holder(11, ['b']));
        expect(await store.pathHolders(7, 'acme', 'widgets')).toEqual([
          { number: 1, ...holder(11, ['b']) },
        ]);
        await store.setPathHolder(issue(1), null);
        expect(await store.pathHolders(7, 'acme', 'widgets')).toEqual([]);
        await store.setPathHolder(issue(2), holder(20, ['c']));
        await store.setPathHolder(issue(2), holder(20, []));
        expect(await store.pathHolders(7, 'acme', 'widgets')).toEqual([]);
      });

      it('repositories and installations are indexed apart', async () => {
        await store.setPathHolder(issue(1), holder(10, ['a']));
        await store.setPathHolder(issue(1, { repo: 'gadgets' }), holder(11, ['a']));
        await store.setPathHolder(issue(1, { installationId: 8 }), holder(12, ['a']));
        expect((await store.pathHolders(7, 'acme', 'widgets')).map((h) => h.commentId)).toEqual([
          10,
        ]);
        expect((await store.pathHolders(7, 'acme', 'gadgets')).map((h) => h.commentId)).toEqual([
          11,
        ]);
        expect((await store.pathHolders(8, 'acme', 'widgets')).map((h) => h.commentId)).toEqual([
          12,
        ]);
        expect(await store.pathHolders(7, 'acme', 'nothing')).toEqual([]);
      });

      it('concurrent writes of different issues all land', async () => {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.setPathHolder(issue(i + 1), holder(i + 1, [`f${i}`])),
          ),
        );
        expect(await store.pathHolders(7, 'acme', 'widgets')).toHaveLength(20);
      });
    });
  });
}
