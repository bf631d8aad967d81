import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { describeBoardRecordsContract } from './board-records-contract.js';
import { describeCachedReadsContract } from './cached-reads-contract.js';
import { at, issue, type MakeStore, useStore } from './contract-fixture.js';
import { describeDeliveryIdsContract } from './delivery-ids-contract.js';
import { describeGuardRecordsContract } from './guard-records-contract.js';
import { describeIssueRecordsContract } from './issue-records-contract.js';
import { describeOpenIssuesContract } from './open-issues-contract.js';
import { describePathHoldersContract } from './path-holders-contract.js';
import { describePeriodicJobsContract } from './periodic-jobs-contract.js';
import { describeRepoQueueSettingsContract } from './repo-queue-settings-contract.js';
import { describeUnpublishedEventsContract } from './unpublished-events-contract.js';

/** Every concern's contract, each run against the store's own pair of that concern. */
const CONCERNS = [
  describeDeliveryIdsContract,
  describePeriodicJobsContract,
  describeIssueRecordsContract,
  describeUnpublishedEventsContract,
  describePathHoldersContract,
  describeGuardRecordsContract,
  describeCachedReadsContract,
  describeRepoQueueSettingsContract,
  describeOpenIssuesContract,
  describeBoardRecordsContract,
];

/**
 * The behaviour every {@link Store} shares (the embedded and the Redis one), so the app can
 * rely on the interface and not on an implementation: each concern's contract, and what spans
 * them (forgetting an issue in every concern at once).
 */
export function describeStoreContract(name: string, makeStore: MakeStore): void {
  for (const describeConcern of CONCERNS) describeConcern(name, makeStore);

  describe(`${name} (Store contract)`, () => {
    let store: Store;
    useStore(makeStore, (made) => {
      store = made;
    });

    describe('forgetting an issue', () => {
      it('drops its deadline, holder, assignees and noted 404, and nothing of others', async () => {
        for (const key of [issue(1), issue(2)]) {
          await store.setDeadline(key, at(10));
          await store.setHolder(key, 42);
          await store.setAppAssignees(key, ['alice']);
          await store.noteIssueGone(key, 60_000);
        }
        await store.forgetIssue(issue(1));
        expect(await store.dueIssues(at(10), 10)).toEqual([issue(2)]);
        expect(await store.holderOf(issue(1))).toBeNull();
        expect(await store.appAssignees(issue(1))).toEqual([]);
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(false);
        expect(await store.holderOf(issue(2))).toBe(42);
        expect(await store.appAssignees(issue(2))).toEqual(['alice']);
        expect(await store.noteIssueGone(issue(2), 60_000)).toBe(true);
      });
    });

    it('answers a ping', async () => {
      expect(await store.ping()).toBe(true);
    });
  });
}
