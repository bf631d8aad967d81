/**
 * docs/protocol.md §13 end to end: the real app on the fake GitHub tells a receiver on
 * loopback about each claim change, signed, once per change.
 */
import { describe, expect, it } from 'vitest';
import type { ClaimEvent } from '../../src/events/claim-event.js';
import { signEvent } from '../../src/events/sign-event.js';
import { caller, claimPath } from '../api/api-helpers.js';
import { appWrites, claimComment, HOUR, harnessFor, scrape } from '../e2e/e2e-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { startReceiver } from './receiver.js';

const SECRET = 'e2e-events-secret-'.padEnd(40, 'x');

/** A receiver on loopback and the app telling it its events; both closed after the test. */
async function withReceiver(
  onTestFinished: (fn: () => Promise<void>) => void,
  options: { seed?: (fake: FakeGitHub) => void } = {},
) {
  const receiver = await startReceiver();
  onTestFinished(() => receiver.close());
  const harness = await harnessFor(onTestFinished, {
    ...options,
    env: { CLAIMS_EVENTS_URL: receiver.url, CLAIMS_EVENTS_SECRET: SECRET },
  });
  return { receiver, harness };
}

describe('outgoing claim events', () => {
  it('a receiver sees held, lost, released and expired, each signed, once per change', async ({
    onTestFinished,
  }) => {
    const { receiver, harness } = await withReceiver(onTestFinished);
    const { fake } = harness;
    const events = () => receiver.received.map((r) => JSON.parse(r.body) as ClaimEvent);

    const n = fake.createIssue(REPO);
    const alice = fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();
    const bob = fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-2') });
    await harness.settle();
    fake.editComment(alice.id, claimComment('s-1', { stage: 'released', outcome: 'landed' }));
    await harness.settle();
    const old = new Date(Date.now() - 7 * HOUR);
    const stale = fake.createIssue(REPO);
    const quiet = fake.addComment(REPO, stale, {
      author: 'bob',
      body: claimComment('s-3', { at: old }),
      createdAt: old,
      updatedAt: old,
    });
    await harness.settle();
    await waitFor(() => receiver.received.length >= 4, 'four events');
    await harness.app.warden.events?.idle();

    expect(events().map((e) => [e.type, e.issue, e.claim.commentId])).toEqual([
      ['claim.held', n, alice.id],
      ['claim.lost', n, bob.id],
      ['claim.released', n, alice.id],
      ['claim.expired', stale, quiet.id],
    ]);
    expect(events()[1]).toMatchObject({ holder: { commentId: alice.id, author: 'alice' } });
    expect(events()[0]).toMatchObject({
      installation: harness.installationId,
      repository: REPO,
      claim: { author: 'alice', session: 's-1', stage: 'claimed' },
    });
    for (const { headers, body } of receiver.received) {
      const event = JSON.parse(body) as { id: string; type: string };
      expect(headers['x-claims-signature-256']).toBe(signEvent(SECRET, body));
      expect(headers['x-claims-event']).toBe(event.type);
      expect(headers['x-claims-delivery']).toBe(event.id);
    }
    expect(new Set(events().map((e) => e.id)).size).toBe(4);
  });

  it('a reconcile that fails after finalising tells, on its retry, what it finalised', async ({
    onTestFinished,
  }) => {
    const { receiver, harness } = await withReceiver(onTestFinished);
    const { fake } = harness;
    // Alice held the issue (an earlier reconcile recorded her) and has gone quiet since.
    fake.pauseWebhooks();
    const old = new Date(Date.now() - 7 * HOUR);
    const n = fake.createIssue(REPO);
    const alice = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-1', { at: old }),
      createdAt: old,
      updatedAt: old,
    });
    fake.addLabels(REPO, n, ['status:in-progress']);
    fake.assign(REPO, n, ['alice']);
    const key = { installationId: harness.installationId, owner: 'acme', repo: 'widgets' };
    await harness.app.warden.store.setHolder({ ...key, number: n }, alice.id);

    // Bob's claim takes over: alice's comment is finalised as stale, then assigning bob
    // fails every attempt of the first reconcile (octokit tries four times), so the queue
    // retries the reconcile.
    const refused = fake.inject({
      method: 'POST',
      path: `/repos/${REPO}/issues/${n}/assignees`,
      status: 500,
      times: 4,
    });
    const bob = fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-2') });
    fake.resumeWebhooks();
    await harness.settle();
    await harness.app.warden.events?.idle();

    expect(refused.hits).toBe(4);
    expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
    const told = receiver.received.map((r) => JSON.parse(r.body) as ClaimEvent);
    // The retry's plan no longer finalises alice (her comment is final): the event its
    // first attempt kept is told, and bob's holding is a takeover, as without the failure.
    expect(told.map((e) => [e.type, e.claim.commentId])).toEqual([
      ['claim.expired', alice.id],
      ['claim.taken-over', bob.id],
    ]);
    for (const { headers, body } of receiver.received) {
      expect(headers['x-claims-signature-256']).toBe(signEvent(SECRET, body));
    }
  });

  it('an administrative release through the claims API is told as one, not as the session’s release', async ({
    onTestFinished,
  }) => {
    const { receiver, harness } = await withReceiver(onTestFinished, {
      seed: (f) => {
        f.addUser('mona', { association: 'MEMBER' });
        f.setRole(REPO, 'mona', 'maintain');
      },
    });
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const held = fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-bob') });
    await harness.settle();

    const answer = await caller(harness.appUrl, fake, 'mona').delete(claimPath(n), {
      outcome: 'abandoned',
      note: 'reassigned',
    });
    expect(answer.status).toBe(200);
    await harness.settle();
    await harness.app.warden.events?.idle();

    const told = receiver.received.map((r) => JSON.parse(r.body) as ClaimEvent);
    expect(told.map((e) => [e.type, e.claim.commentId])).toEqual([
      ['claim.held', held.id],
      ['claim.administratively-released', held.id],
    ]);
    expect(told[1]?.reason).toBe(
      'administrative release by @mona through the claims API: reassigned',
    );
    expect(
      await harness.app.warden.store.pendingEvents({
        installationId: harness.installationId,
        owner: 'acme',
        repo: 'widgets',
        number: n,
      }),
    ).toEqual([]);
  });

  it('a repository in observe mode publishes no event: nothing was written', async ({
    onTestFinished,
  }) => {
    const { receiver, harness } = await withReceiver(onTestFinished, {
      seed: (fake) => fake.setFile(REPO, '.github/claims.yml', 'mode: observe\n'),
    });
    const { fake } = harness;
    fake.clearRequests();

    // Enforced, these would be claim.held, claim.lost and claim.expired.
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-2') });
    const old = new Date(Date.now() - 7 * HOUR);
    const stale = fake.createIssue(REPO);
    fake.addComment(REPO, stale, {
      author: 'bob',
      body: claimComment('s-3', { at: old }),
      createdAt: old,
      updatedAt: old,
    });
    await harness.settle();
    await harness.app.warden.events?.idle();

    expect(await scrape(harness)).toMatch(/claims_reconciles_total\{outcome="observed"\} [1-9]/);
    expect(appWrites(fake)).toEqual([]);
    expect(receiver.received).toEqual([]);
  });
});
