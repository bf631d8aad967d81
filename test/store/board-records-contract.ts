import { describe, expect, it } from 'vitest';
import {
  type BoardRecords,
  CLAIM_CHANGES_CAP,
  type ClaimChange,
} from '../../src/store/board-records.js';
import { at, type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link BoardRecords} does (memory and Redis): the app relies on it. */
export function describeBoardRecordsContract(name: string, make: MakeStore<BoardRecords>): void {
  describe(`${name} (BoardRecords contract)`, () => {
    let store: BoardRecords;
    useStore(make, (made) => {
      store = made;
    });

    describe('claims board history', () => {
      it('lists changes since a time, newest first, each id once', async () => {
        await store.recordClaimChange(change('a', 10));
        await store.recordClaimChange(change('c', 30));
        await store.recordClaimChange(change('b', 20));
        await store.recordClaimChange(change('b', 20));
        expect((await store.claimChanges(at(0))).map((c) => c.id)).toEqual(['c', 'b', 'a']);
        expect((await store.claimChanges(at(20))).map((c) => c.id)).toEqual(['c', 'b']);
        expect(await store.claimChanges(at(31))).toEqual([]);
        expect((await store.claimChanges(at(0)))[0]).toEqual(change('c', 30));
      });

      it('keeps only the newest changes once the history is full', async () => {
        for (let i = 0; i < CLAIM_CHANGES_CAP + 3; i++) {
          await store.recordClaimChange(change(`c${i}`, i));
        }
        const kept = await store.claimChanges(at(0));
        expect(kept).toHaveLength(CLAIM_CHANGES_CAP);
        expect(kept[0]!.id).toBe(`c${CLAIM_CHANGES_CAP + 2}`);
        expect(kept.at(-1)!.id).toBe('c3');
      });
    });
  });
}

function change(id: string, seconds: number): ClaimChange {
  return {
    id,
    kind: 'expiry',
    at: at(seconds).toISOString(),
    installationId: 7,
    repo: 'acme/widgets',
    number: 1,
    title: 'Issue 1',
    url: 'https://github.com/acme/widgets/issues/1',
    commentId: 101,
    author: 'alice',
    session: 'h:5f4dcc3b5aa7',
  };
}
