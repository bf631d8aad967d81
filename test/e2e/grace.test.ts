import { describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { ClaimEvent } from '../../src/events/claim-event.js';
import { caller, claimBody, claimPath } from '../api/api-helpers.js';
import { startReceiver } from '../events/receiver.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { callTool, claimArgs, errorOf, mcpClient } from '../mcp/mcp-helpers.js';
import { claimComment, harnessFor, IN_PROGRESS, markerOf, type OnFinished } from './e2e-helpers.js';

const MINUTE = 60_000;

/**
 * The real app and fake GitHub on one clock, moved by `advance`, with `claims` as the
 * repository's claims.yml and one open issue `n`: alice and bob call the API.
 */
async function onClock(onFinished: OnFinished, claims: string, env: Record<string, string> = {}) {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const harness = await harnessFor(onFinished, {
    env,
    main: { now },
    seed: (fake) => {
      fake.clock = now;
      fake.setFile(REPO, '.github/claims.yml', claims);
    },
  });
  const { fake, appUrl } = harness;
  return Object.assign(harness, {
    n: fake.createIssue(REPO),
    alice: caller(appUrl, fake, 'alice'),
    bob: caller(appUrl, fake, 'bob'),
    advance: (ms: number) => {
      offset += ms;
    },
  });
}

/** A ten-minute window with five minutes of grace for the owner (docs/protocol.md §17). */
const GRACE = 'staleAfter: 10m\ngrace: 5m\n';

describe.concurrent('grace for the owner (docs/protocol.md §17)', () => {
  it('the owner’s session takes its stale claim over within the grace; others wait for its end', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice, bob, advance, settle } = await onClock(onTestFinished, GRACE);
    const first = await alice.post(claimPath(n), claimBody('s-a'));
    expect(first.status).toBe(201);
    const { staleAt, graceUntil, commentId } = first.body.claim;
    // graceUntil is five minutes past staleAt.
    expect(Date.parse(graceUntil) - Date.parse(staleAt)).toBe(5 * MINUTE);
    await settle();

    advance(11 * MINUTE);
    // GET shows the stale claim, in its grace, with graceUntil.
    const shown = await bob.get(claimPath(n));
    expect(shown.status).toBe(200);
    expect(shown.body.claim).toMatchObject({ commentId, session: 's-a', graceUntil });
    expect(Date.parse(shown.body.claim.staleAt)).toBeLessThan(Date.now() + 11 * MINUTE);

    // Another session: 409 IN_GRACE, wait until the grace ends; nothing written.
    const comments = fake.comments(REPO, n).length;
    const refused = await bob.post(claimPath(n), claimBody('s-b'));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'IN_GRACE',
      details: {
        holder: { commentId, graceUntil },
        recovery: { action: 'wait', retryAt: graceUntil },
      },
    });
    expect(refused.body.error.message).toContain(`wait until then`);
    expect(fake.comments(REPO, n)).toHaveLength(comments);

    // The work queue does not offer it; it lists it as held, with graceUntil.
    const free = await bob.get(`/issues?claimable=true&repo=${REPO}`);
    expect(free.body.items).toEqual([]);
    const held = await bob.get(`/issues?claimable=false&repo=${REPO}`);
    expect(held.body.items).toMatchObject([
      { issue: { number: n }, claim: { commentId, graceUntil } },
    ]);

    // A heartbeat never revives a stale claim: the session claims again.
    const beat = await alice.post(`${claimPath(n)}/heartbeat`, { session: 's-a' });
    expect(beat.status).toBe(409);
    expect(beat.body.error.code).toBe('CLAIM_NOT_HELD');

    // The owner's session claims again: the stale claim is handed over, the issue stays held.
    const again = await alice.post(claimPath(n), claimBody('s-a'));
    expect(again.status).toBe(201);
    expect(again.body.replaced).toEqual([
      expect.objectContaining({ commentId, stage: 'released', outcome: 'handed-over' }),
    ]);
    expect(markerOf(fake, commentId)).toMatchObject({ stage: 'released', outcome: 'handed-over' });
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
  });

  it('another session’s comment claim in the grace is finalised with the reason; the sweep ends the grace', async ({
    onTestFinished,
  }) => {
    const { fake, n, advance, settle, bob } = await onClock(onTestFinished, GRACE);
    const first = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-a', { at: fake.clock() }),
    });
    await settle();
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);

    advance(11 * MINUTE);
    const theirs = fake.addComment(REPO, n, {
      author: 'bob',
      body: claimComment('s-b', { at: fake.clock() }),
    });
    await settle();
    const { graceUntil } = (await bob.get(claimPath(n))).body.claim;
    expect(markerOf(fake, theirs.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(fake.comment(theirs.id)?.body).toContain(
      `in grace for @alice's session until ${graceUntil}`,
    );
    // The claim in grace still holds: unreleased, labelled, assigned.
    expect(markerOf(fake, first.id)?.stage).toBe('claimed');
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });

    // At the end of the grace the sweep (the plan's deadline) finalises it, no event needed.
    advance(5 * MINUTE);
    await waitFor(
      () => parseClaimMarker(fake.comment(first.id)?.body ?? '')?.stage === 'released',
      'the sweep to finalise the claim at the end of its grace',
    );
    expect(markerOf(fake, first.id)).toMatchObject({ outcome: 'abandoned' });
    expect(fake.comment(first.id)?.body).toContain('stale since');
    await settle();
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [] });
    const free = await bob.get(`/issues?claimable=true&repo=${REPO}`);
    expect(free.body.items).toMatchObject([{ issue: { number: n }, claim: null }]);
  });

  it('a comment claim of the owner’s session within the grace takes over; the old one is handed over', async ({
    onTestFinished,
  }) => {
    const { fake, n, advance, settle } = await onClock(onTestFinished, GRACE);
    const first = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-a', { at: fake.clock() }),
    });
    await settle();
    advance(12 * MINUTE);
    const again = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-a', { at: fake.clock() }),
    });
    await settle();
    expect(markerOf(fake, first.id)).toMatchObject({ stage: 'released', outcome: 'handed-over' });
    expect(fake.comment(first.id)?.body).toContain(
      `claimed again by its own session in comment ${again.id}`,
    );
    expect(markerOf(fake, again.id)?.stage).toBe('claimed');
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
  });

  it('a person’s /claim in the grace gets one reply and waits; the issue is theirs when it ends', async ({
    onTestFinished,
  }) => {
    const { fake, n, advance, settle, bob } = await onClock(onTestFinished, GRACE);
    const first = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-a', { at: fake.clock() }),
    });
    await settle();
    advance(11 * MINUTE);
    const { graceUntil } = (await bob.get(claimPath(n))).body.claim;
    fake.addComment(REPO, n, { author: 'bob', body: '/claim' });
    await settle();
    const replies = fake
      .comments(REPO, n)
      .filter((c) => c.user.login === fake.botLogin && c.body.includes('@bob'));
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toContain(`holds this issue for its own session until ${graceUntil}`);
    expect(replies[0]!.body).toContain('waitlist');
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);

    advance(5 * MINUTE);
    await waitFor(
      () => fake.issue(REPO, n).assignees.includes('bob'),
      'the waitlist to be served at the end of the grace',
    );
    expect(markerOf(fake, first.id)?.stage).toBe('released');
  });

  it('through MCP: another session gets IN_GRACE, the owner’s session takes over', async ({
    onTestFinished,
  }) => {
    const { fake, n, advance, settle, appUrl } = await onClock(onTestFinished, GRACE);
    const alice = await mcpClient(appUrl, fake.tokenFor('alice'), 'agent-a');
    const bob = await mcpClient(appUrl, fake.tokenFor('bob'), 'agent-b');
    onTestFinished(() => Promise.all([alice.close(), bob.close()]).then(() => undefined));
    const first = await callTool(alice, 'issue_claim', claimArgs(n, 's-a'));
    const { commentId, graceUntil } = (
      first.structuredContent as { claim: { commentId: number; graceUntil: string } }
    ).claim;
    await settle();
    advance(11 * MINUTE);
    const refused = await callTool(bob, 'issue_claim', claimArgs(n, 's-b'));
    expect(refused.isError).toBe(true);
    expect(errorOf(refused)).toMatchObject({
      code: 'IN_GRACE',
      details: { recovery: { action: 'wait', retryAt: graceUntil } },
    });
    const again = await callTool(alice, 'issue_claim', claimArgs(n, 's-a'));
    expect(again.isError).toBeFalsy();
    expect(again.structuredContent).toMatchObject({
      replaced: [{ commentId, outcome: 'handed-over' }],
    });
  });

  it('the owner’s session releases its claim in grace: the issue is claimable at once', async ({
    onTestFinished,
  }) => {
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    const { fake, n, alice, bob, advance, settle, app } = await onClock(onTestFinished, GRACE, {
      CLAIMS_EVENTS_URL: receiver.url,
      CLAIMS_EVENTS_SECRET: 'grace-events-secret-'.padEnd(40, 'x'),
    });
    const first = await alice.post(claimPath(n), claimBody('s-a'));
    const { commentId } = first.body.claim;
    await settle();
    advance(11 * MINUTE);
    expect((await bob.get(claimPath(n))).body.claim).toMatchObject({ commentId });

    // "I'm done, don't wait for me": finalised as a release, with the outcome given.
    const done = await alice.delete(claimPath(n), {
      session: 's-a',
      outcome: 'handed-over',
      note: 'out of time',
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      released: true,
      claim: { commentId, stage: 'released', outcome: 'handed-over' },
    });
    expect(markerOf(fake, commentId)).toMatchObject({ stage: 'released', outcome: 'handed-over' });
    expect(fake.comment(commentId)?.body).toContain(
      'released by its session through the claims API: out of time',
    );
    await settle();
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [] });
    expect((await bob.get(claimPath(n))).body.claim).toBeNull();
    const free = await bob.get(`/issues?claimable=true&repo=${REPO}`);
    expect(free.body.items).toMatchObject([{ issue: { number: n }, claim: null }]);

    // Another session claims it at once: nothing to wait for, nothing taken over.
    const taken = await bob.post(claimPath(n), claimBody('s-b'));
    expect(taken.status).toBe(201);
    expect(taken.body.replaced ?? []).toEqual([]);
    await settle();
    await waitFor(() => receiver.received.length >= 3, 'three events');
    await app.warden.events?.idle();
    const told = receiver.received.map((r) => JSON.parse(r.body) as ClaimEvent);
    expect(told.map((e) => [e.type, e.claim.commentId])).toEqual([
      ['claim.held', commentId],
      ['claim.released', commentId],
      ['claim.held', taken.body.claim.commentId],
    ]);
    expect(told[1]).toMatchObject({ reason: 'released by its session (handed-over)' });
  });

  it('release-all includes the session’s claim in grace beside its live ones', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice, bob, advance, settle } = await onClock(onTestFinished, GRACE);
    const first = await alice.post(claimPath(n), claimBody('s-a'));
    await settle();
    advance(11 * MINUTE);
    const live = fake.createIssue(REPO);
    const second = await alice.post(claimPath(live), claimBody('s-a'));
    expect(second.status).toBe(201);
    await settle();

    const all = await alice.delete('/claims', { session: 's-a', outcome: 'abandoned' });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      released: [
        { issue: `${REPO}#${n}`, commentId: first.body.claim.commentId, stage: 'released' },
        { issue: `${REPO}#${live}`, commentId: second.body.claim.commentId, stage: 'released' },
      ],
      failed: [],
    });
    await settle();
    for (const issue of [n, live]) {
      expect(fake.issue(REPO, issue)).toMatchObject({ labels: [], assignees: [] });
    }
    expect((await bob.post(claimPath(n), claimBody('s-b'))).status).toBe(201);
    // The second call finds nothing left.
    expect((await alice.delete('/claims', { session: 's-a' })).body).toEqual({
      released: [],
      failed: [],
    });
  });

  it('another session cannot release a claim in grace: refused, and it still holds', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice, bob, advance, settle } = await onClock(onTestFinished, GRACE);
    const first = await alice.post(claimPath(n), claimBody('s-a'));
    const { commentId, graceUntil } = first.body.claim;
    await settle();
    advance(11 * MINUTE);
    const writes = fake.writes().length;
    for (const [who, session] of [
      [bob, 's-b'],
      [bob, 's-a'],
      [alice, 's-other'],
    ] as const) {
      const refused = await who.delete(claimPath(n), { session, outcome: 'abandoned' });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('CLAIM_NOT_HELD');
    }
    expect((await bob.delete('/claims', { session: 's-b' })).body.released).toEqual([]);
    expect(fake.writes().slice(writes)).toEqual([]);
    expect(markerOf(fake, commentId)?.stage).toBe('claimed');
    expect((await bob.get(claimPath(n))).body.claim).toMatchObject({ commentId, graceUntil });
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
  });

  it('grace 0 is today’s behaviour: another session takes a stale claim over at once', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice, bob, advance, settle } = await onClock(
      onTestFinished,
      'staleAfter: 10m\ngrace: 0\n',
    );
    const first = await alice.post(claimPath(n), claimBody('s-a'));
    expect(first.body.claim).not.toHaveProperty('graceUntil');
    await settle();
    advance(11 * MINUTE);
    expect((await bob.get(claimPath(n))).body.claim).toBeNull();
    const taken = await bob.post(claimPath(n), claimBody('s-b'));
    expect(taken.status).toBe(201);
    // Finalised as stale, by the takeover or by a sweep before it.
    expect(markerOf(fake, first.body.claim.commentId)).toMatchObject({
      stage: 'released',
      outcome: 'abandoned',
    });
    expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
  });

  it('a grace over the stale window is a config error naming the field; nothing is written', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await onClock(onTestFinished, 'staleAfter: 10m\ngrace: 1h\n');
    const answer = await alice.post(claimPath(n), claimBody('s-a'));
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('CONFIG_INVALID');
    expect(answer.body.error.message).toContain(
      'grace: must be at most the stale window (10m), or 0 to turn it off (got "1h")',
    );
    expect(fake.comments(REPO, n)).toHaveLength(0);
  });
});
