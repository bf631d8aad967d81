import { describe, expect, it } from 'vitest';
import type { IssueRecords } from '../../src/store/issue-records.js';
import { at, issue, type MakeStore, PAST_TTL, TTL, useStore } from './contract-fixture.js';

/** What every {@link IssueRecords} does (memory and Redis): the app relies on it. */
export function describeIssueRecordsContract(name: string, make: MakeStore<IssueRecords>): void {
  describe(`${name} (IssueRecords contract)`, () => {
    let store: IssueRecords;
    const pass = useStore(make, (made) => {
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

    describe('holders', () => {
      it('remembers the holder of each issue until it is cleared', async () => {
        expect(await store.holderOf(issue(1))).toBeNull();
        await store.setHolder(issue(1), 3_000_000_001);
        await store.setHolder(issue(2), 7);
        await store.setHolder(issue(1), 3_000_000_002);
        expect(await store.holderOf(issue(1))).toBe(3_000_000_002);
        expect(await store.holderOf(issue(2))).toBe(7);
        await store.setHolder(issue(1), null);
        expect(await store.holderOf(issue(1))).toBeNull();
        expect(await store.holderOf(issue(2))).toBe(7);
      });
    });

    describe('issues GitHub answered 404 or 410', () => {
      it('the first answer is not proof; the second in a row is', async () => {
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(false);
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(true);
        expect(await store.noteIssueGone(issue(2), 60_000)).toBe(false);
      });

      it('an answer in between clears the first', async () => {
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(false);
        await store.clearIssueGone(issue(1));
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(false);
      });

      it('a first answer older than its TTL no longer counts', async () => {
        expect(await store.noteIssueGone(issue(1), TTL)).toBe(false);
        await pass(PAST_TTL);
        expect(await store.noteIssueGone(issue(1), TTL)).toBe(false);
      });
    });

    describe('assignees the app added', () => {
      it('are remembered per issue, and an empty list forgets them', async () => {
        expect(await store.appAssignees(issue(1))).toEqual([]);
        await store.setAppAssignees(issue(1), ['alice', 'Bob']);
        await store.setAppAssignees(issue(2, { installationId: 8 }), ['carol']);
        expect(await store.appAssignees(issue(1))).toEqual(['alice', 'Bob']);
        expect(await store.appAssignees(issue(2))).toEqual([]);
        await store.setAppAssignees(issue(1), []);
        expect(await store.appAssignees(issue(1))).toEqual([]);
        expect(await store.appAssignees(issue(2, { installationId: 8 }))).toEqual(['carol']);
      });
    });
  });
}
