import { describe, expect, it } from 'vitest';
import type { Deadlines } from '../../src/store/deadlines.js';
import { at, issue, type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link Deadlines} does (memory and Redis): the app relies on it. */
export function describeDeadlinesContract(name: string, make: MakeStore<Deadlines>): void {
  describe(`${name} (Deadlines contract)`, () => {
    let store: Deadlines;
    useStore(make, (made) => {
      store = made;
    });

    describe('deadline index', () => {
      it('lists due issues earliest first, at or before now, at most limit', async () => {
        await store.setDeadline(issue(3), at(30));
        await store.setDeadline(issue(1), at(10));
        await store.setDeadline(issue(2), at(20));
        await store.setDeadline(issue(4), at(40));

        expect(await store.dueIssues(at(30), 10)).toEqual([issue(1), issue(2), issue(3)]);
        expect(await store.dueIssues(at(30), 2)).toEqual([issue(1), issue(2)]);
        expect(await store.dueIssues(at(9), 10)).toEqual([]);
        expect(await store.dueIssues(at(30), 0)).toEqual([]);
      });

      it('reading due issues does not remove them', async () => {
        await store.setDeadline(issue(1), at(10));
        expect(await store.dueIssues(at(10), 10)).toEqual([issue(1)]);
        expect(await store.dueIssues(at(10), 10)).toEqual([issue(1)]);
        expect(await store.countDeadlines()).toBe(1);
      });

      it('setting a deadline again moves it, and null removes it', async () => {
        await store.setDeadline(issue(1), at(10));
        await store.setDeadline(issue(2), at(20));
        await store.setDeadline(issue(1), at(30));
        expect(await store.dueIssues(at(25), 10)).toEqual([issue(2)]);
        expect(await store.dueIssues(at(30), 10)).toEqual([issue(2), issue(1)]);
        expect(await store.countDeadlines()).toBe(2);

        await store.setDeadline(issue(2), null);
        await store.setDeadline(issue(9), null);
        expect(await store.dueIssues(at(30), 10)).toEqual([issue(1)]);
        expect(await store.countDeadlines()).toBe(1);
      });

      it('issues of different repositories and installations are distinct', async () => {
        const keys = [
          issue(1),
          issue(1, { repo: 'gadgets' }),
          issue(1, { owner: 'my-org.io', repo: 'repo_name.js' }),
          issue(1, { installationId: 8 }),
        ];
        for (const [i, key] of keys.entries()) await store.setDeadline(key, at(i));
        expect(await store.dueIssues(at(10), 10)).toEqual(keys);
        expect(await store.countDeadlines()).toBe(4);
      });

      it('equal deadlines all come back', async () => {
        await store.setDeadline(issue(2), at(5));
        await store.setDeadline(issue(1), at(5));
        const due = await store.dueIssues(at(5), 10);
        expect(due).toHaveLength(2);
        expect(due).toEqual(expect.arrayContaining([issue(1), issue(2)]));
      });
    });
  });
}
