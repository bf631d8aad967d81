import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import type { IssueFacts } from '../../src/claims/issue-facts.js';
import { keepClaimEvents } from '../../src/events/keep-claim-events.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { claim, DEFAULT_CONFIG, facts, HOUR, NOW } from '../helpers/thread-builder.js';

const KEY = { installationId: 7, owner: 'acme', repo: 'widgets', number: 12 };

/** A stale holder (1, recorded by the reconcile before) and a fresh claim (2). */
const takeover = () =>
  facts({ comments: [claim({ id: 1, updatedAgoMs: 7 * HOUR }), claim({ id: 2, by: 'bob' })] });

/** The thread after the plan's finalisations were written: what the retry reads. */
function written(issue: IssueFacts): IssueFacts {
  const plan = decide(issue, DEFAULT_CONFIG, NOW);
  const bodies = new Map(
    plan.actions.flatMap((a) => (a.kind === 'finalise' ? [[a.commentId, a.body] as const] : [])),
  );
  return {
    ...issue,
    comments: issue.comments.map((c) => ({ ...c, body: bodies.get(c.id) ?? c.body })),
  };
}

/** One reconcile's events, kept in `store` as the reconcile keeps them. */
async function reconcile(store: MemoryStore, issue: IssueFacts) {
  const plan = decide(issue, DEFAULT_CONFIG, NOW);
  return keepClaimEvents(store, {
    key: KEY,
    comments: issue.comments,
    plan,
    previousHolder: 1,
    now: NOW,
  });
}

const summary = (
  events: readonly { type: string; claim: { commentId: number | null }; id: string }[],
) => events.map((e) => `${e.type} ${e.claim.commentId}`);

describe('events kept across a failed attempt (docs/protocol.md §13, at least once)', () => {
  it('a retry after the finalisation landed tells what the first attempt would have', async () => {
    const store = new MemoryStore();
    const first = await reconcile(store, takeover());
    expect(summary(first.events)).toEqual(['claim.expired 1', 'claim.taken-over 2']);
    // The writes landed; the publish failed, so nothing was marked published.

    const retry = await reconcile(store, written(takeover()));
    expect(retry.events).toEqual(first.events);
  });

  it('a finalisation that never landed is decided afresh: the same event, told once', async () => {
    const store = new MemoryStore();
    const first = await reconcile(store, takeover());
    const retry = await reconcile(store, takeover());
    expect(retry.events).toEqual(first.events);
    expect(await store.pendingEvents(KEY)).toHaveLength(1);
  });

  it('once published, nothing is kept and a later reconcile tells nothing again', async () => {
    const store = new MemoryStore();
    const first = await reconcile(store, takeover());
    await first.published();
    expect(await store.pendingEvents(KEY)).toEqual([]);
    // The holder is recorded after the publish: the next reconcile starts from bob.
    const later = await keepClaimEvents(store, {
      key: KEY,
      comments: written(takeover()).comments,
      plan: decide(written(takeover()), DEFAULT_CONFIG, NOW),
      previousHolder: 2,
      now: NOW,
    });
    expect(later.events).toEqual([]);
  });

  it('a kept event whose comment shows something else since is not told', async () => {
    const store = new MemoryStore();
    await reconcile(store, takeover());
    // The session edited its comment back to a fresh heartbeat before the write landed.
    const refreshed = facts({ comments: [claim({ id: 1 }), claim({ id: 2, by: 'bob' })] });
    const retry = await reconcile(store, refreshed);
    expect(summary(retry.events)).toEqual(['claim.lost 2']);
    expect(await store.pendingEvents(KEY)).toEqual([
      expect.objectContaining({ event: expect.objectContaining({ type: 'claim.lost' }) }),
    ]);
  });
});
