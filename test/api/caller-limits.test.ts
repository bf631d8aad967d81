/**
 * Nothing pins the door (docs/protocol.md §8 "Limits"): a caller who may not write is refused
 * before the issue's lock is taken or its thread read, so its calls never delay a
 * collaborator's; and each caller's concurrent and per-minute calls are bounded (429
 * RATE_LIMITED with `retry-after`), with limits the operator sets.
 */
import { describe, expect, it } from 'vitest';
import { claimComment, harnessFor } from '../e2e/e2e-helpers.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { caller, claimBody, claimPath, withIssue } from './api-helpers.js';

/** A gate the fake holds requests at until `open()`. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { hold: () => opened, open };
}

describe.concurrent('a read-only caller flooding heartbeats', () => {
  it('never takes the issue lock nor reads the thread: a collaborator’s claim completes while its calls are pending', async ({
    onTestFinished,
  }) => {
    const h = await withIssue(onTestFinished, {
      env: { CLAIMS_API_CONCURRENCY: '100' },
    });
    const { fake, appUrl, settle, n } = h;
    fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-bob') });
    const free = fake.createIssue(REPO);
    await settle();
    const mallory = caller(appUrl, fake, 'mallory');
    // Mallory's identity and visibility are known; GitHub holds the answer to her permission.
    expect((await mallory.get(claimPath(n))).status).toBe(200);
    const permission = gate();
    const held = fake.inject({
      method: 'GET',
      path: `/repos/${REPO}/collaborators/mallory/permission`,
      hold: permission.hold,
    });
    // Every exclusive section the API enters on an issue, counted where the app keeps it.
    const queue = h.app.warden.queue;
    const exclusive = queue.exclusive.bind(queue);
    const locked: number[] = [];
    queue.exclusive = (key, fn) => {
      locked.push(key.number);
      return exclusive(key, fn);
    };
    const threadReads = () =>
      fake.count('GET', `/repos/${REPO}/issues/${n}`) +
      fake.count('GET', `/repos/${REPO}/issues/${n}/comments`);
    const before = threadReads();
    const beats = Array.from({ length: 40 }, () =>
      mallory.post(`${claimPath(n)}/heartbeat`, { session: 's-bob' }),
    );
    // Today's code never asks; it goes straight to the lock.
    await waitFor(
      () => held.hits === 1 || locked.length >= 40,
      'mallory’s heartbeats to reach GitHub',
    );
    const claim = await caller(appUrl, fake, 'alice').post(claimPath(free), claimBody('s-a'));
    expect(claim.status).toBe(201);
    // While all 40 wait on GitHub, only alice's claim took a lock, and none read the thread.
    expect(locked).toEqual([free]);
    expect(threadReads()).toBe(before);
    permission.open();
    const answers = await Promise.all(beats);
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(403));
    expect(locked).toEqual([free]);
    expect(threadReads()).toBe(before);
  });
});

describe.concurrent('per-caller limits', () => {
  it('past CLAIMS_API_RATE_PER_MINUTE a caller gets 429 RATE_LIMITED with retry-after; others do not', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, n, alice } = await withIssue(onTestFinished, {
      env: { CLAIMS_API_RATE_PER_MINUTE: '3' },
    });
    for (let i = 0; i < 3; i++) expect((await alice.get(claimPath(n))).status).toBe(200);
    const limited = await alice.get(claimPath(n));
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(limited.body.error.message).toContain('3 calls a minute');
    const after = Number(limited.headers.get('retry-after'));
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(60);
    // Refused before GitHub is asked anything for it.
    const calls = fake.requests.length;
    expect((await alice.post(claimPath(n), claimBody('s-1'))).status).toBe(429);
    expect(fake.requests.length).toBe(calls);
    expect((await caller(appUrl, fake, 'bob').get(claimPath(n))).status).toBe(200);
  });

  it('past CLAIMS_API_CONCURRENCY calls at once a caller gets 429 at once; the pending ones complete', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished, {
      env: { CLAIMS_API_CONCURRENCY: '2' },
      seed: (f) => f.addRepo('acme/gadgets'),
    });
    const a = fake.createIssue(REPO);
    const b = fake.createIssue('acme/gadgets');
    const alice = caller(appUrl, fake, 'alice');
    const visibility = gate();
    const held = fake.inject({
      method: 'GET',
      path: /^\/repos\/acme\/(widgets|gadgets)$/,
      actor: 'alice',
      times: 2,
      hold: visibility.hold,
    });
    const pending = [alice.get(claimPath(a)), alice.get(claimPath(b, 'acme/gadgets'))];
    await waitFor(() => held.hits === 2, 'both calls to wait on GitHub');
    const third = await alice.get(claimPath(a));
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(third.body.error.message).toContain('2 calls at once');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await caller(appUrl, fake, 'bob').get(claimPath(a))).status).toBe(200);
    visibility.open();
    expect((await Promise.all(pending)).map((p) => p.status)).toEqual([200, 200]);
    expect((await alice.get(claimPath(a))).status).toBe(200);
  });
});
