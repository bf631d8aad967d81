/**
 * Stale work with commits goes to review (docs/protocol.md §17) across three replicas on one
 * Redis: the sweeps of all three and a webhook delivered to each at once finalise the stale
 * claim once, with one review label and one note, and no replica offers or grants the issue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { caller, claimBody, claimPath } from '../api/api-helpers.js';
import { type Cluster, claim, createdDeliveries, REPO, startCluster, waitFor } from './harness.js';

const MINUTE = 60_000;
const REVIEW = 'status:needs-review';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('review on three replicas', () => {
  it('a stale claim with commits gets one review label and one note, and no replica grants it', async () => {
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    let n = 0;
    let head = '';
    cluster = await startCluster({
      replicas: 3,
      main: { now },
      env: { CLAIMS_STALE_AFTER: '10m' },
      seed: (fake) => {
        fake.clock = now;
        head = fake.createBranch(REPO, 'feat/s-1', { ahead: 2 });
        n = fake.createIssue(REPO);
      },
    });
    const { fake, replicas } = cluster;
    const first = fake.addComment(REPO, n, { author: 'alice', body: claim('s-1') });
    const [created] = createdDeliveries(fake, [first.id]);
    expect(await cluster.send(created!, replicas[0]!)).toBeLessThan(300);
    await cluster.idle();
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);

    // Stale now: every replica's sweep runs on the shared clock, and a comment's delivery
    // reaches all three at once.
    offset = 11 * MINUTE;
    const poke = fake.addComment(REPO, n, { author: 'bob', body: 'any news?' });
    const [poked] = createdDeliveries(fake, [poke.id]);
    await Promise.all(replicas.map((replica) => cluster!.send(poked!, replica)));
    await waitFor(
      () => parseClaimMarker(fake.comment(first.id)?.body ?? '')?.stage === 'released',
      'the stale claim finalised',
    );
    await cluster.idle();

    const issue = fake.issue(REPO, n);
    expect(issue.labels).toEqual([REVIEW]);
    expect(issue.assignees).toEqual([]);
    const notes = fake.comments(REPO, n).filter((c) => c.user?.login === fake.botLogin);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain(`left 2 commits on feat/s-1 (${head.slice(0, 7)})`);
    const reviewLabelWrites = fake.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === `/repos/${REPO}/issues/${n}/labels` &&
        JSON.stringify(r.body).includes(REVIEW),
    );
    expect(reviewLabelWrites.map((r) => r.status)).toEqual([200]);
    // One compare: the replicas that came after the finalisation read nothing.
    expect(fake.count('GET', /\/compare\/main\.\.\.feat(%2F|\/)s-1$/)).toBe(1);

    // No replica offers it or grants it to another agent.
    for (const [i, replica] of replicas.entries()) {
      const bob = caller(replica.url, fake, 'bob');
      const free = await bob.get(`/issues?claimable=true&repo=${REPO}`);
      expect(free.body.items, `replica ${i}`).toEqual([]);
      const refused = await bob.post(claimPath(n), claimBody(`s-b${i}`));
      expect(refused.status, `replica ${i}`).toBe(409);
      expect(refused.body.error.code).toBe('NEEDS_REVIEW');
      expect(refused.body.error.details.review).toMatchObject({ branch: 'feat/s-1', aheadBy: 2 });
    }
    await cluster.idle();
    expect(fake.requests.filter((r) => r.actor === 'bob' && r.method === 'POST')).toEqual([]);
    expect(fake.comments(REPO, n).filter((c) => c.user?.login === fake.botLogin)).toHaveLength(1);
  });
});
