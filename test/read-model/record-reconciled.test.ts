import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import type { IssueThread } from '../../src/github/thread.js';
import { recordReconciled } from '../../src/read-model/record-reconciled.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import {
  APP_LOGIN,
  type ClaimSpec,
  claim,
  DEFAULT_CONFIG,
  HOUR,
  NOW,
} from '../helpers/thread-builder.js';

const KEY = { installationId: 7, owner: 'acme', repo: 'widgets', number: 12 };
const META = {
  title: 'Fix the widget',
  url: 'https://github.com/acme/widgets/issues/12',
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-30T11:00:00Z',
};

/** Decides on a thread of these claims and records it, as one reconcile does. */
async function reconcileOnce(store: MemoryStore, specs: ClaimSpec[], open = true) {
  const thread: IssueThread = {
    open,
    stateReason: open ? null : 'completed',
    isPullRequest: false,
    labels: ['help wanted'],
    assignees: [],
    comments: specs.map(claim),
  };
  const plan = decide({ ...thread, appLogin: APP_LOGIN, hints: [] }, DEFAULT_CONFIG, NOW);
  const pulls: number[] = [];
  await recordReconciled(
    {
      store,
      log: pino({ level: 'silent' }),
      requestPullCheck: async (key) => void pulls.push(key.number),
    },
    KEY,
    {
      plan,
      thread: { ...thread, meta: META },
      paths: { holders: [], checked: new Map() },
      staleAfterMs: DEFAULT_CONFIG.staleAfterMs,
      now: NOW,
    },
  );
  return plan;
}

describe('one reconcile recorded in the read model', () => {
  it('a takeover shows the new holder to the queue, the board, the guard and the sweep', async () => {
    const store = new MemoryStore();
    const plan = await reconcileOnce(store, [
      { id: 1, by: 'alice', updatedAgoMs: 7 * HOUR },
      { id: 2, by: 'bob' },
    ]);

    const [entry] = await store.openIssues();
    expect(entry?.issue).toMatchObject({
      key: KEY,
      title: 'Fix the widget',
      labels: ['help wanted'],
    });
    expect(entry?.claim).toMatchObject({ commentId: 2, author: 'bob', branch: 'feat/2' });
    expect(await store.holderOf(KEY)).toBe(2);
    expect(await store.claimChanges(new Date(0))).toMatchObject([
      { kind: 'takeover', commentId: 1, author: 'alice', by: { login: 'bob' } },
    ]);
    expect(await store.branchHolders(KEY, 'feat/2')).toMatchObject([
      { number: 12, commentId: 2, author: 'bob' },
    ]);
    expect(plan.deadline).not.toBeNull();
    expect(await store.dueIssues(plan.deadline!, 10)).toEqual([KEY]);
  });

  it('a closed issue leaves the open-issue index and holds nothing', async () => {
    const store = new MemoryStore();
    await reconcileOnce(store, [{ id: 2, by: 'bob' }]);
    await reconcileOnce(store, [{ id: 2, by: 'bob' }], false);

    expect(await store.openIssues()).toEqual([]);
    expect(await store.holderOf(KEY)).toBeNull();
    expect(await store.branchHolders(KEY, 'feat/2')).toEqual([]);
  });
});
