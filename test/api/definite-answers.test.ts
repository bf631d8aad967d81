/**
 * Only definite answers are kept (docs/protocol.md §8, §9): a rate limit or a 5xx from GitHub
 * is 503 UNVERIFIABLE with `retry-after` and is never cached, so one such answer hides
 * nothing once GitHub is fine again; and the work queue's visibility checks go a few at a
 * time. Through the real server and the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { caller, claimPath, withIssue } from './api-helpers.js';

const SECONDARY_LIMIT = { 'retry-after': '42' };
const PRIMARY_LIMIT = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0' };

describe.concurrent('GitHub limiting or failing the caller’s token', () => {
  it.for([
    ['a secondary rate limit (403 with retry-after)', 403, SECONDARY_LIMIT],
    ['a primary rate limit (403, none remaining)', 403, PRIMARY_LIMIT],
    ['a 502', 502, {}],
  ] as const)(
    '%s on the visibility check: 503 UNVERIFIABLE with retry-after, then answered once GitHub is fine',
    async ([, status, headers], { onTestFinished }) => {
      const { fake, n, alice } = await withIssue(onTestFinished);
      fake.inject({ method: 'GET', path: `/repos/${REPO}`, actor: 'alice', status, headers });
      const limited = await alice.get(claimPath(n));
      expect(limited.status).toBe(503);
      expect(limited.body.error.code).toBe('UNVERIFIABLE');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      if (headers === SECONDARY_LIMIT) expect(limited.headers.get('retry-after')).toBe('42');
      // Not kept as "cannot read": the next call asks again and is answered.
      expect((await alice.get(claimPath(n))).status).toBe(200);
    },
  );

  it('a secondary rate limit does not empty the work queue, and is not kept', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished);
    fake.createIssue(REPO);
    await settle();
    const alice = caller(appUrl, fake, 'alice');
    fake.inject({
      method: 'GET',
      path: `/repos/${REPO}`,
      actor: 'alice',
      status: 403,
      headers: SECONDARY_LIMIT,
    });
    const limited = await alice.get('/issues');
    expect(limited.status).toBe(503);
    expect(limited.body.error.code).toBe('UNVERIFIABLE');
    expect(limited.headers.get('retry-after')).toBe('42');
    const listed = await alice.get('/issues');
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
  });

  it('a rate-limited GET /user is 503, not "an installation token", and is not kept', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    fake.inject({ method: 'GET', path: '/user', status: 403, headers: SECONDARY_LIMIT });
    const limited = await alice.get(claimPath(n));
    expect(limited.status).toBe(503);
    expect(limited.body.error.code).toBe('UNVERIFIABLE');
    expect(limited.body.error.message).not.toContain('installation token');
    expect(limited.headers.get('retry-after')).toBe('42');
    expect((await alice.get(claimPath(n))).status).toBe(200);
  });
});

describe.concurrent('the work queue’s visibility checks', () => {
  it('go at most 8 at a time over 30 repositories, and every repository is answered', async ({
    onTestFinished,
  }) => {
    const names = Array.from({ length: 30 }, (_, i) => `acme/r${i + 1}`);
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      seed: (f) => {
        for (const name of names) f.addRepo(name);
      },
    });
    for (const name of names) fake.createIssue(name);
    await settle();
    // GitHub holds each of alice's repository reads until the test lets it go.
    const waiting: Array<() => void> = [];
    let inFlight = 0;
    let most = 0;
    fake.inject({
      method: 'GET',
      path: /^\/repos\/acme\/r\d+$/,
      actor: 'alice',
      times: Infinity,
      hold: () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        return new Promise<void>((resolve) =>
          waiting.push(() => {
            inFlight -= 1;
            resolve();
          }),
        );
      },
    });
    const listing = caller(appUrl, fake, 'alice').get('/issues?limit=100');
    let released = 0;
    while (released < names.length) {
      await waitFor(
        () => waiting.length >= Math.min(8, names.length - released),
        'the next visibility checks',
        { everyMs: 20 },
      );
      for (const go of waiting.splice(0)) {
        go();
        released += 1;
      }
    }
    const listed = await listing;
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(30);
    expect(most).toBeLessThanOrEqual(8);
  });
});
