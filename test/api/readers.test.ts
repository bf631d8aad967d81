/**
 * Readers never cost a writer (docs/protocol.md §8 "Readers"): `GET …/claim` takes no issue
 * lock and waits behind no write, and the readers of one issue share one GitHub read, so the
 * installation reads an issue at most once per pacing interval however many read it. Through
 * the real server and the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { claimComment, harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import { caller, claimBody, claimPath } from './api-helpers.js';

/** The spacing of the installation's writes, and so of its reads of one issue. */
const INTERVAL_MS = 200;
const READERS = 20;

describe.concurrent('readers of one issue while a collaborator claims it', () => {
  it('the claim succeeds, and the installation reads the issue once per interval, not once per reader', async ({
    onTestFinished,
  }) => {
    const readers = Array.from({ length: READERS }, (_, i) => `reader-${i}`);
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      env: { CLAIMS_WRITE_PACING_MS: String(INTERVAL_MS), CLAIMS_API_RATE_PER_MINUTE: '100000' },
      seed: (f) => {
        for (const login of readers) f.addUser(login, { association: 'NONE' });
      },
    });
    const n = fake.createIssue(REPO);
    await settle();
    const clients = readers.map((login) => caller(appUrl, fake, login));
    // Each reader's identity and visibility are known before the count starts.
    for (const reader of clients) expect((await reader.get(claimPath(n))).status).toBe(200);

    fake.clearRequests();
    const started = Date.now();
    let writing = true;
    const statuses: number[] = [];
    const hammer = clients.map(async (reader) => {
      while (writing) statuses.push((await reader.get(claimPath(n))).status);
    });
    const claim = await caller(appUrl, fake, 'alice').post(claimPath(n), claimBody('s-alice'));
    writing = false;
    await Promise.all(hammer);
    const elapsed = Date.now() - started;

    expect(claim.status).toBe(201);
    expect(claim.body.claim).toMatchObject({ author: 'alice', session: 's-alice' });
    expect(statuses.every((s) => s === 200)).toBe(true);
    // After the claim, a reader sees it at once: the write forgets what readers shared.
    const after = await clients[0]!.get(claimPath(n));
    expect(after.body.claim).toMatchObject({ author: 'alice', session: 's-alice' });

    const issueReads = fake.requests.filter(
      (r) =>
        r.actor === fake.botLogin && r.method === 'GET' && r.path === `/repos/${REPO}/issues/${n}`,
    ).length;
    // The claim reads the issue itself (before its comment, and to settle it), and so does the
    // reconcile of each of its webhook echoes (the comment, the label, the assignment); the
    // readers add at most one read per interval that passed, and one after the write.
    const writerReads = 6;
    expect(statuses.length).toBeGreaterThan(READERS);
    expect(issueReads).toBeLessThanOrEqual(Math.ceil(elapsed / INTERVAL_MS) + writerReads + 1);
  });

  it('a reader never shows a claim the thread does not hold: a release is seen at the next read', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      env: { CLAIMS_WRITE_PACING_MS: String(INTERVAL_MS) },
    });
    const n = fake.createIssue(REPO);
    const c = fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-bob') });
    await settle();
    const mallory = caller(appUrl, fake, 'mallory');
    expect((await mallory.get(claimPath(n))).body.claim).toMatchObject({ commentId: c.id });
    const bob = caller(appUrl, fake, 'bob');
    const released = await bob.delete(claimPath(n), { session: 's-bob', outcome: 'abandoned' });
    expect(released.status).toBe(200);
    expect((await mallory.get(claimPath(n))).body.claim).toBeNull();
  });
});
