/**
 * Grace for the owner (docs/protocol.md §17) across three replicas on one Redis: every replica
 * reads the same claim in grace, refuses other sessions alike, and lets only the owner's
 * session take it over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { caller, claimBody, claimPath } from '../api/api-helpers.js';
import { type Cluster, REPO, startCluster } from './harness.js';

const MINUTE = 60_000;

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('grace on three replicas', () => {
  it('a claim in grace refuses other sessions on every replica; the owner’s session takes it over once', async () => {
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    cluster = await startCluster({
      replicas: 3,
      main: { now },
      seed: (fake) => {
        fake.clock = now;
        fake.setFile(REPO, '.github/claims.yml', 'staleAfter: 10m\ngrace: 5m\n');
      },
    });
    const { fake, replicas } = cluster;
    const n = fake.createIssue(REPO);
    const [first, , third] = replicas.map((r) => caller(r.url, fake, 'alice'));
    const bobs = replicas.map((r) => caller(r.url, fake, 'bob'));
    const claimed = await first!.post(claimPath(n), claimBody('s-a'));
    expect(claimed.status).toBe(201);
    const { commentId, graceUntil } = claimed.body.claim;
    await cluster.idle();

    offset = 11 * MINUTE;
    // Every replica answers the same: shown with graceUntil, not claimable, IN_GRACE to bob.
    for (const [i, bob] of bobs.entries()) {
      const shown = await bob.get(claimPath(n));
      expect(shown.body.claim, `replica ${i}`).toMatchObject({ commentId, graceUntil });
      const free = await bob.get(`/issues?claimable=true&repo=${REPO}`);
      expect(free.body.items, `replica ${i}`).toEqual([]);
    }
    // Bob on two replicas and alice's session on the third, at once.
    const [b1, b2, again] = await Promise.all([
      bobs[1]!.post(claimPath(n), claimBody('s-b')),
      bobs[2]!.post(claimPath(n), claimBody('s-b2')),
      third!.post(claimPath(n), claimBody('s-a')),
    ]);
    expect(again.status).toBe(201);
    expect(again.body.replaced).toMatchObject([{ commentId, outcome: 'handed-over' }]);
    for (const refused of [b1!, b2!]) {
      expect(refused.status).toBe(409);
      // Before the takeover: in grace; after it: held by the new claim.
      expect(['IN_GRACE', 'ISSUE_ALREADY_CLAIMED']).toContain(refused.body.error.code);
      expect(refused.body.error.details.recovery.action).toBe('wait');
    }
    await cluster.idle();
    // One live claim, alice's new one; bob's tokens posted nothing.
    const live = fake.comments(REPO, n).filter((c) => c.body.includes('stage=claimed'));
    expect(live.map((c) => c.id)).toEqual([again.body.claim.commentId]);
    expect(fake.requests.filter((r) => r.actor === 'bob' && r.method === 'POST')).toEqual([]);
    expect(fake.issue(REPO, n)).toMatchObject({ assignees: ['alice'] });
  });
});
