import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findHolder } from '../../src/claims/liveness.js';
import { trustedClaims } from '../../src/claims/trusted-claims.js';
import type { ThreadComment } from '../../src/claims/types.js';
import { type Harness, harness, interpose, issueNumber, latch, REPO } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

const COMMENTS = /\/issues\/\d+\/comments$/;
const COMMENT = /\/issues\/comments\/\d+$/;

/** The holder of the issue as the app would compute it now, from the fake's thread. */
function holderOf(ref: string, staleAfterMs = 6 * 3_600_000) {
  const issue = h.fake.issue(REPO, issueNumber(ref));
  const comments: ThreadComment[] = h.fake.comments(REPO, issueNumber(ref)).map((c) => ({
    id: c.id,
    author: c.user?.login ?? '',
    authorAssociation: c.author_association,
    body: c.body ?? '',
    createdAt: new Date(c.created_at),
    updatedAt: new Date(c.updated_at),
  }));
  return findHolder(trustedClaims(comments, []), issue.state === 'open', staleAfterMs, new Date());
}

/**
 * Fetches for two sessions that both reach their claim POST before either sends it: both
 * have read the issue as free.
 */
function bothReadFirst(): [typeof fetch, typeof fetch] {
  let arrived = 0;
  const both = latch();
  const rule = {
    method: 'POST',
    path: COMMENTS,
    nth: 1,
    before: async () => {
      arrived += 1;
      if (arrived === 2) both.fire();
      await both.wait;
    },
  };
  return [interpose([rule]), interpose([rule])];
}

describe('two sessions claiming at once', () => {
  it.each([
    ['a free issue', () => undefined],
    [
      'an issue whose last claim was released',
      (ref: string) => {
        h.seedClaim(ref, {
          author: 'bob',
          session: 'earlier',
          stage: 'released',
          outcome: 'landed',
        });
      },
    ],
    [
      'an issue with a stale claim',
      (ref: string) => {
        h.seedClaim(ref, { author: 'bob', session: 'earlier', ageMinutes: 7 * 60 });
      },
    ],
  ])(
    'on %s exactly one holds; the other finalises its comment and is told the winner',
    async (_, seed) => {
      const ref = h.issue();
      seed(ref);
      const [fa, fb] = bothReadFirst();
      const [a, b] = await Promise.all([
        h.run(
          'claim',
          { issue: ref, session: 'sess-a', lane: 'l', branch: 'feat/a' },
          { login: 'alice', runtime: { fetch: fa } },
        ),
        h.run(
          'claim',
          { issue: ref, session: 'sess-b', lane: 'l', branch: 'feat/b' },
          { login: 'bob', runtime: { fetch: fb } },
        ),
      ]);

      const results = [a, b];
      const winner = results.find((r) => r.status === 'ok');
      const loser = results.find((r) => r.status === 'refused');
      expect(winner, JSON.stringify(results)).toBeDefined();
      expect(loser, JSON.stringify(results)).toBeDefined();
      const won = (winner!.data as { claim: { commentId: number; author: string } }).claim;
      expect(loser!.data).toMatchObject({
        reason: 'lost-race',
        holder: { commentId: won.commentId },
      });
      const lostId = (loser!.data as { finalised: number }).finalised;
      expect(lostId).toBeGreaterThan(won.commentId);
      expect(h.marker(lostId)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
      expect(h.fake.comment(lostId)!.body).toContain(
        `lost to the older claim in comment ${won.commentId}`,
      );
      expect(holderOf(ref)?.comment.id).toBe(won.commentId);
      const issue = h.fake.issue(REPO, issueNumber(ref));
      expect(issue.labels).toEqual(['status:in-progress']);
      expect(issue.assignees).toEqual([won.author]);
    },
  );
});

describe('a stale holder’s update racing a takeover (10m window)', () => {
  // Alice's clock runs five minutes behind: to her, her 12-minute-old claim is 7 minutes old
  // and live; to Bob it is stale.
  const aliceClock = { now: () => new Date(Date.now() - 5 * 60_000) };
  const window = '10m';

  it('takeover wins: the takeover lands after the update; the old holder is told it was taken over', async () => {
    const ref = h.issue();
    const stale = h.seedClaim(ref, { author: 'alice', session: 'sess-a', ageMinutes: 12 });
    const bobRead = latch();
    const alicePatched = latch();
    const bobFinalised = latch();
    const alice = interpose([
      {
        method: 'PATCH',
        path: COMMENT,
        nth: 1,
        before: () => bobRead.wait,
        after: alicePatched.fire,
      },
      { method: 'GET', path: COMMENTS, nth: 2, before: () => bobFinalised.wait },
    ]);
    const bob = interpose([
      { method: 'GET', path: COMMENTS, nth: 1, after: bobRead.fire },
      { method: 'POST', path: COMMENTS, nth: 1, before: () => alicePatched.wait },
      { method: 'PATCH', path: COMMENT, nth: 1, after: bobFinalised.fire },
    ]);

    const [a, b] = await Promise.all([
      h.run(
        'status',
        { issue: ref, session: 'sess-a', stage: 'review', staleAfter: window },
        { login: 'alice', runtime: { ...aliceClock, fetch: alice } },
      ),
      h.run(
        'claim',
        { issue: ref, session: 'sess-b', lane: 'l', branch: 'feat/b', staleAfter: window },
        { login: 'bob', runtime: { fetch: bob } },
      ),
    ]);

    expect(b.status).toBe('ok');
    expect(b.data).toMatchObject({ action: 'took-over' });
    expect(a.status).toBe('refused');
    expect(a.data).toMatchObject({ reason: 'taken-over' });
    expect(a.message).toContain('was taken over');
    expect(h.marker(stale)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    const holder = holderOf(ref, 10 * 60_000);
    expect(holder?.comment.author).toBe('bob');
  });

  it('resume wins: the update lands after the takeover; the taker loses to the older claim', async () => {
    const ref = h.issue();
    const stale = h.seedClaim(ref, { author: 'alice', session: 'sess-a', ageMinutes: 12 });
    const aliceRead = latch();
    const bobFinalised = latch();
    const alicePatched = latch();
    const alice = interpose([
      { method: 'GET', path: COMMENTS, nth: 1, after: aliceRead.fire },
      {
        method: 'PATCH',
        path: COMMENT,
        nth: 1,
        before: () => bobFinalised.wait,
        after: alicePatched.fire,
      },
    ]);
    const bob = interpose([
      { method: 'POST', path: COMMENTS, nth: 1, before: () => aliceRead.wait },
      { method: 'PATCH', path: COMMENT, nth: 1, after: bobFinalised.fire },
      { method: 'GET', path: COMMENTS, nth: 2, before: () => alicePatched.wait },
    ]);

    const [a, b] = await Promise.all([
      h.run(
        'status',
        { issue: ref, session: 'sess-a', stage: 'review', staleAfter: window },
        { login: 'alice', runtime: { ...aliceClock, fetch: alice } },
      ),
      h.run(
        'claim',
        { issue: ref, session: 'sess-b', lane: 'l', branch: 'feat/b', staleAfter: window },
        { login: 'bob', runtime: { fetch: bob } },
      ),
    ]);

    expect(a.status).toBe('ok');
    expect(b.status).toBe('refused');
    expect(b.data).toMatchObject({ reason: 'lost-race', holder: { commentId: stale } });
    const bobComment = (b.data as { finalised: number }).finalised;
    expect(h.marker(bobComment)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(holderOf(ref, 10 * 60_000)?.comment.id).toBe(stale);
  });
});

describe('a live comment that is not the holder', () => {
  it.each([
    ['status', { stage: 'review' }],
    ['release', { outcome: 'landed' }],
  ] as const)('%s finalises it as abandoned and refuses naming the holder', async (name, extra) => {
    const ref = h.issue();
    const holder = h.seedClaim(ref, { author: 'bob', session: 'other', ageMinutes: 5 });
    const mine = h.seedClaim(ref, { author: 'alice', session: 'unit7', ageMinutes: 4 });
    const result = await h.run(name, { issue: ref, session: 'unit7', ...extra });
    expect(result.status).toBe('refused');
    expect(result.data).toMatchObject({ holder: { commentId: holder }, finalised: mine });
    expect(h.marker(mine)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(h.marker(holder)).toMatchObject({ stage: 'implementing' });
  });
});
