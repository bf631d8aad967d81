/**
 * Unknown tokens cost GitHub a bounded number of `GET /user` (docs/security.md "Limits"): per
 * client address and overall, a definite 401 kept a minute, and a flood of new tokens never
 * evicts the count of a caller still limited.
 */
import { describe, expect, it } from 'vitest';
import { IDENTITY_LOOKUP_LIMITS } from '../../src/api/caller/identity-lookups.js';
import { callApi, claimPath, withIssue } from './api-helpers.js';

/** The flood of the report: 10,050 distinct made-up tokens. */
const FLOOD = 10_050;

/** Runs `count` calls, `width` at a time; resolves their statuses. */
async function flood(count: number, width: number, call: (i: number) => Promise<number>) {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const status = await call(next++);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

describe('tokens GitHub does not know', () => {
  it('a refused token is answered 401 again for a minute without asking GitHub', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, n } = await withIssue(onTestFinished);
    const lookups = () => fake.count('GET', '/user');
    const before = lookups();
    for (let i = 0; i < 3; i++) {
      const answer = await callApi(appUrl, 'GET', claimPath(n), { token: 'ghp_made-up' });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('UNAUTHENTICATED');
    }
    // Before: every call asked GitHub.
    expect(lookups() - before).toBe(1);
  });

  it('a flood of made-up tokens costs a bounded number of GET /user and gives a limited caller no more calls', async ({
    onTestFinished,
  }) => {
    // The app's clock stands still, so no count refills while the flood runs: what is
    // bounded is then exactly a minute's worth.
    const at = new Date();
    const { fake, appUrl, n, alice } = await withIssue(onTestFinished, {
      env: { CLAIMS_API_RATE_PER_MINUTE: '3' },
      main: { now: () => at },
    });
    fake.clock = () => at;
    // alice spends her minute (the harness's first read of the issue may have counted).
    while ((await alice.get(claimPath(n))).status === 200) {}
    expect((await alice.get(claimPath(n))).status).toBe(429);
    const before = fake.count('GET', '/user');

    const statuses = await flood(FLOOD, 64, async (i) => {
      const answer = await callApi(appUrl, 'GET', claimPath(n), { token: `ghp_bogus-${i}` });
      return answer.status;
    });

    // Before: 10,051 GET /user, one per token. Now: at most a minute's lookups for one
    // address (alice's own lookup was one of them).
    const lookedUp = fake.count('GET', '/user') - before;
    expect(lookedUp).toBeGreaterThan(0);
    expect(lookedUp).toBeLessThanOrEqual(IDENTITY_LOOKUP_LIMITS.perAddressPerMinute);
    expect(statuses[401]).toBe(lookedUp);
    expect(statuses[429]).toBe(FLOOD - lookedUp);
    // Before: the flood evicted alice's count, and she got 5 more calls in the same minute.
    const after = await alice.get(claimPath(n));
    expect(after.status).toBe(429);
    expect(after.body.error.message).toContain('3 calls a minute');
  });
});
