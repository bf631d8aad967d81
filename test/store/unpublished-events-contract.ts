import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { UnpublishedEvents } from '../../src/store/unpublished-events.js';
import { issue, type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link UnpublishedEvents} does (memory and Redis): the app relies on it. */
export function describeUnpublishedEventsContract(
  name: string,
  make: MakeStore<UnpublishedEvents & Pick<Store, 'forgetIssue'>>,
): void {
  describe(`${name} (UnpublishedEvents contract)`, () => {
    let store: UnpublishedEvents & Pick<Store, 'forgetIssue'>;
    useStore(make, (made) => {
      store = made;
    });

    describe('pending events', () => {
      const pending = (commentId: number) => ({
        event: {
          id: `e-${commentId}`,
          type: 'claim.lost' as const,
          at: '2030-01-01T00:00:00Z',
          installation: 7,
          repository: 'acme/widgets',
          issue: 1,
          claim: { commentId },
        },
        marker: `<!-- praetor-claim v=1 stage=released c=${commentId} -->`,
      });

      it('keeps each issue’s pending events until an empty list or forgetting the issue', async () => {
        expect(await store.pendingEvents(issue(1))).toEqual([]);
        await store.setPendingEvents(issue(1), [pending(3), pending(4)]);
        await store.setPendingEvents(issue(2), [pending(5)]);
        expect(await store.pendingEvents(issue(1))).toEqual([pending(3), pending(4)]);
        await store.setPendingEvents(issue(1), [pending(4)]);
        expect(await store.pendingEvents(issue(1))).toEqual([pending(4)]);
        await store.setPendingEvents(issue(1), []);
        expect(await store.pendingEvents(issue(1))).toEqual([]);
        await store.forgetIssue(issue(2));
        expect(await store.pendingEvents(issue(2))).toEqual([]);
      });
    });
  });
}
