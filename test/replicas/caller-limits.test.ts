/**
 * Per-caller limits for the whole deployment (docs/security.md "Limits"): with three replicas
 * on one Redis, one token's calls spread over the three get CLAIMS_API_RATE_PER_MINUTE and
 * CLAIMS_API_CONCURRENCY in total, not three times each.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { caller, claimPath } from '../api/api-helpers.js';
import { type Cluster, REPO, startCluster, waitFor } from './harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

/** A gate the fake holds requests at until `open()`. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { hold: () => opened, open };
}

describe('one token over three replicas on one Redis', () => {
  it('gets CLAIMS_API_RATE_PER_MINUTE calls in total within one burst, then 429 with retry-after everywhere', async () => {
    cluster = await startCluster({ replicas: 3, env: { CLAIMS_API_RATE_PER_MINUTE: '6' } });
    const { fake, replicas } = cluster;
    const n = fake.createIssue(REPO);
    const alice = replicas.map((r) => caller(r.url, fake, 'alice'));

    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await alice[i % 3]!.get(claimPath(n))).status);

    // Before: each replica counted for itself, so all 12 (3 × 6 allowed) were answered.
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.slice(6)).toEqual(Array(6).fill(429));
    for (const a of alice) {
      const refused = await a.get(claimPath(n));
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(refused.body.error.message).toContain('6 calls a minute');
      const after = Number(refused.headers.get('retry-after'));
      expect(after).toBeGreaterThanOrEqual(1);
      expect(after).toBeLessThanOrEqual(60);
    }
    // Another caller has a count of its own.
    expect((await caller(replicas[1]!.url, fake, 'bob').get(claimPath(n))).status).toBe(200);
  });

  it('has at most CLAIMS_API_CONCURRENCY calls running across the replicas; a slot comes back when one ends', async () => {
    cluster = await startCluster({ replicas: 3, env: { CLAIMS_API_CONCURRENCY: '2' } });
    const { fake, replicas } = cluster;
    const n = fake.createIssue(REPO);
    const alice = replicas.map((r) => caller(r.url, fake, 'alice'));
    // Each replica asks GitHub whether alice's token reads the repository (its own cache):
    // GitHub holds those answers, so the calls stay running.
    const visibility = gate();
    const held = fake.inject({
      method: 'GET',
      path: `/repos/${REPO}`,
      actor: 'alice',
      times: 2,
      hold: visibility.hold,
    });
    const pending = [alice[0]!.get(claimPath(n)), alice[1]!.get(claimPath(n))];
    await waitFor(() => held.hits === 2, 'two calls on two replicas to wait on GitHub');

    const third = await alice[2]!.get(claimPath(n));
    // Before: the third replica counted none running and let it in.
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(third.body.error.message).toContain('2 calls at once');
    expect(third.headers.get('retry-after')).toBe('1');
    expect((await caller(replicas[2]!.url, fake, 'bob').get(claimPath(n))).status).toBe(200);

    visibility.open();
    expect((await Promise.all(pending)).map((p) => p.status)).toEqual([200, 200]);
    expect((await alice[2]!.get(claimPath(n))).status).toBe(200);
  });
});
