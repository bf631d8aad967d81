/**
 * Conditional thread reads (docs/api-budget.md): the real app on the fake GitHub re-reads a
 * thread it read before with the same token with `If-None-Match`, so an unchanged thread
 * costs two 304s and no rate limit, and decides as the 200 did; any change is read anew.
 */
import { describe, expect, it } from 'vitest';
import { caller, claimPath } from '../api/api-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { checkOf, pathClaim } from '../guard/guard-helpers.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { appWrites, claimComment, HOUR, harnessFor, IN_PROGRESS, markerOf } from './e2e-helpers.js';

/** The reads of issue `n`'s thread, in order: `status issue` or `status comments`. */
function threadReads(fake: FakeGitHub, n: number): string[] {
  const issue = `/repos/${REPO}/issues/${n}`;
  return fake.requests
    .filter((r) => r.method === 'GET' && (r.path === issue || r.path === `${issue}/comments`))
    .map((r) => `${r.status} ${r.path === issue ? 'issue' : 'comments'}`);
}

/** Requests GitHub counts against the rate limit: every answer but a 304. */
function counted(fake: FakeGitHub): string[] {
  return fake.requests.filter((r) => r.status !== 304).map((r) => `${r.method} ${r.path}`);
}

/**
 * Issue 1, labelled and assigned to alice before the app starts, so a claim by alice needs
 * no write and the app's read of it stays GitHub's current answer.
 */
const heldIssue = (fake: FakeGitHub) => {
  fake.createIssue(REPO, { title: 'held', labels: [IN_PROGRESS], assignees: ['alice'] });
};
const N = 1;

/**
 * The start-up resync reconciles the held issue once before any claim is posted: alice is
 * assigned there with no marker yet, a person's claim the app has not seen (docs/protocol.md
 * §16). Its reads are left out of what each test counts.
 */
async function resyncedAtStart(harness: { settle(): Promise<void>; fake: FakeGitHub }) {
  await harness.settle();
  harness.fake.clearRequests();
}

describe.concurrent('conditional thread reads', () => {
  it('a second reconcile of an unchanged issue costs no counted call (two 304s) and decides the same', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, { seed: heldIssue });
    const { fake } = harness;
    await resyncedAtStart(harness);
    const key = {
      installationId: harness.installationId,
      owner: 'acme',
      repo: 'widgets',
      number: N,
    };
    const posted = fake.addComment(REPO, N, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();
    expect(threadReads(fake, N)).toEqual(['200 issue', '200 comments']);
    expect(appWrites(fake)).toEqual([]);
    const holder = await harness.app.warden.store.holderOf(key);
    const summary = await harness.app.warden.store.issueClaim(key);
    expect(holder).toBe(posted.id);
    expect(summary).toMatchObject({ commentId: posted.id });

    // The resync finds the claim's comment again and reconciles the issue.
    fake.clearRequests();
    await harness.app.warden.resync(harness.installationId);
    await harness.settle();

    expect(threadReads(fake, N)).toEqual(['304 issue', '304 comments']);
    expect(counted(fake).filter((c) => c.includes(`/issues/${N}`))).toEqual([]);
    expect(appWrites(fake)).toEqual([]);
    expect(await harness.app.warden.store.holderOf(key)).toBe(holder);
    expect(await harness.app.warden.store.issueClaim(key)).toEqual(summary);
  });

  it.for([
    [
      'the status label removed by a maintainer: the holder is released',
      '200 issue',
      (fake: FakeGitHub) => fake.removeLabel(REPO, N, IN_PROGRESS, { actor: 'maria' }),
      (fake: FakeGitHub, claim: number) =>
        markerOf(fake, claim)?.outcome === 'abandoned' &&
        fake.issue(REPO, N).assignees.length === 0,
    ],
    [
      'the issue closed as completed: the claim is finalised as landed',
      '200 issue',
      (fake: FakeGitHub) => fake.closeIssue(REPO, N, { actor: 'maria' }),
      (fake: FakeGitHub, claim: number) => markerOf(fake, claim)?.outcome === 'landed',
    ],
    [
      'the claim edited to blocked: the blocked label is added',
      '200 comments',
      (fake: FakeGitHub, claim: number) =>
        fake.editComment(claim, claimComment('s-1', { stage: 'blocked' })),
      (fake: FakeGitHub) => fake.issue(REPO, N).labels.includes('status:blocked'),
    ],
  ] as const)('%s (read anew: %s)', async ([, read, change, done], { onTestFinished }) => {
    const harness = await harnessFor(onTestFinished, { seed: heldIssue });
    const { fake } = harness;
    const claim = fake.addComment(REPO, N, { author: 'alice', body: claimComment('s-1') }).id;
    await harness.settle();
    expect(appWrites(fake)).toEqual([]);
    fake.clearRequests();

    change(fake, claim);
    await harness.settle();

    expect(threadReads(fake, N)).toContain(read);
    expect(done(fake, claim)).toBe(true);
  });

  it('a stale claim found by the sweep after its thread went quiet is finalised from 304 reads', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, { seed: heldIssue });
    const { fake } = harness;
    await resyncedAtStart(harness);
    // Live when posted, by 6 s of the default 6 h window; nothing happens on the issue after.
    const at = new Date(Date.now() - 6 * HOUR + 6_000);
    const claim = fake.addComment(REPO, N, {
      author: 'alice',
      body: claimComment('s-quiet', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await harness.settle();
    expect(appWrites(fake)).toEqual([]);
    expect(markerOf(fake, claim.id)?.stage).toBe('claimed');

    await waitFor(() => markerOf(fake, claim.id)?.stage === 'released', 'the stale finalisation');
    await harness.settle();

    expect(markerOf(fake, claim.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(fake.issue(REPO, N)).toMatchObject({ labels: [], assignees: [] });
    // The claim's reconcile read the thread; the sweep's reconcile read it again before it
    // finalised, and GitHub answered both reads 304.
    const finalised = fake.requests.findIndex(
      (r) => r.method === 'PATCH' && r.path === `/repos/${REPO}/issues/comments/${claim.id}`,
    );
    const readsBefore = fake.requests
      .slice(0, finalised)
      .filter((r) => r.method === 'GET' && r.path.startsWith(`/repos/${REPO}/issues/${N}`));
    expect(readsBefore.map((r) => r.status)).toEqual([200, 200, 304, 304]);
  });

  it('the claims API reading an unchanged claim twice: the second read costs two 304s, same answer', async ({
    onTestFinished,
  }) => {
    // Readers share one read of an issue for a pacing interval (docs/protocol.md §8
    // "Readers"); with no interval every read asks GitHub again, conditionally.
    const harness = await harnessFor(onTestFinished, {
      seed: heldIssue,
      env: { CLAIMS_WRITE_PACING_MS: '0' },
    });
    const { fake } = harness;
    fake.addComment(REPO, N, { author: 'alice', body: claimComment('s-api') });
    await harness.settle();
    const bob = caller(harness.appUrl, fake, 'bob');
    const first = await bob.get(claimPath(N));
    expect(first.status).toBe(200);
    expect(first.body.claim).toMatchObject({ session: 's-api' });
    fake.clearRequests();

    const second = await bob.get(claimPath(N));

    expect(second).toMatchObject({ status: 200, body: first.body });
    expect(threadReads(fake, N)).toEqual(['304 issue', '304 comments']);
  });

  it('the guard re-verifying a holder on the next event of a pull request reads its thread as 304s', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, { seed: heldIssue });
    const { fake } = harness;
    fake.addComment(REPO, N, { author: 'alice', body: pathClaim('s-a', ['src/a.ts']) });
    await harness.settle();
    const pull = fake.openPullRequest(REPO, {
      head: 'feat/bob',
      author: 'bob',
      files: ['src/a.ts'],
    });
    await harness.settle();
    fake.clearRequests();

    fake.editPullRequest(REPO, pull, 'A new title');
    await harness.settle();

    expect(threadReads(fake, N)).toEqual(['304 issue', '304 comments']);
    const run = checkOf(fake, pull);
    expect(run).toMatchObject({ conclusion: 'failure' });
    expect(run.output.summary).toContain(`acme/widgets#${N}`);
  });
});
