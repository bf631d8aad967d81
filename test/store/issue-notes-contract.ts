import { describe, expect, it } from 'vitest';
import type { IssueNotes } from '../../src/store/issue-notes.js';
import { issue, type MakeStore, PAST_TTL, TTL, useStore } from './contract-fixture.js';

/** What every {@link IssueNotes} does (memory and Redis): the app relies on it. */
export function describeIssueNotesContract(name: string, make: MakeStore<IssueNotes>): void {
  describe(`${name} (IssueNotes contract)`, () => {
    let store: IssueNotes;
    const pass = useStore(make, (made) => {
      store = made;
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
