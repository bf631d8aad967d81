/**
 * docs/protocol.md §17 "stale work with commits goes to review" and "never dragged back", as
 * an outsider sees them: the real app on the fake GitHub, stale claims backdated past the
 * default 6 h window, branches made on the fake with commits ahead of `main`.
 */
import { describe, expect, it } from 'vitest';
import { caller, claimBody, claimPath } from '../api/api-helpers.js';
import { claimComment, HOUR, harnessFor, markerOf, scrape } from '../e2e/e2e-helpers.js';
import type { RecordedRequest } from '../fake-github/fake-github.js';
import { REPO, waitFor } from '../helpers/app-harness.js';

const REVIEW = 'status:needs-review';
const COMPARE = '/repos/acme/widgets/compare/';

function compares(fake: { requests: readonly RecordedRequest[] }) {
  return fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith(COMPARE));
}

describe.concurrent('stale work with commits goes to review', () => {
  it('labels the issue for review and notes whose work it is', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const head = fake.createBranch(REPO, 'feat/s-old', { ahead: 3 });
    const n = fake.createIssue(REPO);
    const at = new Date(Date.now() - 7 * HOUR);
    const stale = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-old', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await waitFor(() => markerOf(fake, stale.id)?.stage === 'released', 'the stale finalisation');
    await harness.settle();
    expect(fake.issue(REPO, n).labels).toEqual([REVIEW]);
    expect(fake.comment(stale.id)?.body).toContain('its work on feat/s-old awaits review');
    const notes = fake.comments(REPO, n).filter((c) => c.user?.login === fake.botLogin);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain(
      `@alice's session left 3 commits on feat/s-old (${head.slice(0, 7)}); review them before this is taken over.`,
    );
    // The label was created with the app's colour and description.
    expect(fake.labels(REPO).find((l) => l.name === REVIEW)).toMatchObject({ color: 'fbca04' });

    // The stale claim is released now: nothing more to compare.
    fake.addComment(REPO, n, { author: 'bob', body: 'any news?' });
    await harness.settle();
    expect(compares(fake).map((r) => r.status)).toEqual([200]);
  });

  it('a compare read again (the pull list failed the first time) is a 304', async ({
    onTestFinished,
  }) => {
    // No timed sweep within the test: the one below is asked for by hand.
    const harness = await harnessFor(onTestFinished, { env: { CLAIMS_SWEEP_INTERVAL: '1h' } });
    const { fake } = harness;
    fake.createBranch(REPO, 'feat/s-again', { ahead: 2 });
    fake.inject({ method: 'GET', path: '/repos/acme/widgets/pulls', status: 502, times: 1 });
    const n = fake.createIssue(REPO);
    const at = new Date(Date.now() - 7 * HOUR);
    const stale = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-again', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await harness.settle();
    expect(markerOf(fake, stale.id)?.stage).toBe('claimed');
    expect((await harness.app.warden.sweep()).queued).toBe(1);
    await harness.settle();
    expect(markerOf(fake, stale.id)?.stage).toBe('released');
    expect(fake.issue(REPO, n).labels).toEqual([REVIEW]);
    expect(compares(fake).map((r) => r.status)).toEqual([200, 304]);
  });

  it('a branch with no commits ahead, or none at all, hands the issue back', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    fake.createBranch(REPO, 'feat/s-even');
    const at = new Date(Date.now() - 7 * HOUR);
    const even = fake.createIssue(REPO);
    const gone = fake.createIssue(REPO);
    const a = fake.addComment(REPO, even, {
      author: 'alice',
      body: claimComment('s-even', { at }),
      createdAt: at,
      updatedAt: at,
    });
    const b = fake.addComment(REPO, gone, {
      author: 'alice',
      body: claimComment('s-gone', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await waitFor(
      () =>
        markerOf(fake, a.id)?.stage === 'released' && markerOf(fake, b.id)?.stage === 'released',
      'both finalised',
    );
    await harness.settle();
    expect(fake.issue(REPO, even).labels).toEqual([]);
    expect(fake.issue(REPO, gone).labels).toEqual([]);
    // One compare each; the pull list is read only for the branch that exists.
    expect(compares(fake)).toHaveLength(2);
    const pulls = fake.requests.filter((r) => r.path === '/repos/acme/widgets/pulls');
    expect(pulls).toHaveLength(1);
  });

  it('an open pull request from the branch is work too, named in the note', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    fake.createBranch(REPO, 'feat/s-pr');
    const pull = fake.openPullRequest(REPO, {
      head: 'feat/s-pr',
      files: ['a.ts'],
      author: 'alice',
    });
    const n = fake.createIssue(REPO);
    const at = new Date(Date.now() - 7 * HOUR);
    const stale = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-pr', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await waitFor(() => markerOf(fake, stale.id)?.stage === 'released', 'the stale finalisation');
    await harness.settle();
    expect(fake.issue(REPO, n).labels).toEqual([REVIEW]);
    const note = fake.comments(REPO, n).find((c) => c.user?.login === fake.botLogin);
    expect(note?.body).toContain(`left 0 commits on feat/s-pr`);
    expect(note?.body).toContain(`and pull request #${pull}`);
  });

  it('a compare answering 502 leaves the claim as it is, read once until the next sweep', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, { env: { CLAIMS_SWEEP_INTERVAL: '1h' } });
    const { fake } = harness;
    fake.createBranch(REPO, 'feat/s-down', { ahead: 1 });
    const failing = fake.inject({
      path: /compare\/main\.\.\.feat(%2F|\/)s-down$/,
      status: 502,
      times: 1_000,
    });
    const n = fake.createIssue(REPO);
    const at = new Date(Date.now() - 7 * HOUR);
    const stale = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-down', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await harness.settle();
    // Nothing written, and the queue did not retry it: one compare.
    expect(failing.hits).toBe(1);
    expect(markerOf(fake, stale.id)?.stage).toBe('claimed');
    expect(fake.issue(REPO, n).labels).toEqual([]);
    expect(fake.comments(REPO, n).filter((c) => c.user?.login === fake.botLogin)).toEqual([]);
    // Until the next sweep nothing reads the branch again: not a webhook, not a takeover.
    fake.addComment(REPO, n, { author: 'bob', body: 'any news?' });
    await harness.settle();
    const takeover = await caller(harness.appUrl, fake, 'bob').post(claimPath(n), claimBody('s-b'));
    expect(takeover.status).toBe(503);
    expect(takeover.body.error.code).toBe('UNVERIFIABLE');
    expect(failing.hits).toBe(1);
    expect(compares(fake)).toHaveLength(1);
    expect(await scrape(harness)).toContain('claims_review_reads_total{result="failed"} 1');

    // GitHub answers again; the next sweep comes back for the issue and reads it once.
    fake.clearInjections();
    expect((await harness.app.warden.sweep()).queued).toBe(1);
    await harness.settle();
    expect(markerOf(fake, stale.id)?.stage).toBe('released');
    expect(fake.issue(REPO, n).labels).toEqual([REVIEW]);
    expect(compares(fake).map((r) => r.status)).toEqual([502, 200]);
  });

  it('a claim in its grace costs no compare; the sweep at the grace’s end reads it once', async ({
    onTestFinished,
  }) => {
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const harness = await harnessFor(onTestFinished, {
      env: { CLAIMS_SWEEP_INTERVAL: '1h' },
      fake: { clock: now },
      main: { now },
      seed: (fake) => fake.setFile(REPO, '.github/claims.yml', 'grace: 2h\n'),
    });
    const { fake } = harness;
    fake.createBranch(REPO, 'feat/s-grace', { ahead: 2 });
    const n = fake.createIssue(REPO);
    // Stale an hour ago (the window is 6 h), in grace for another hour.
    const at = new Date(Date.now() - 7 * HOUR);
    const stale = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-grace', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await harness.settle();
    fake.addComment(REPO, n, { author: 'bob', body: 'is this taken?' });
    await harness.settle();
    expect(markerOf(fake, stale.id)?.stage).toBe('claimed');
    expect(compares(fake)).toEqual([]);

    offset = 2 * HOUR;
    expect((await harness.app.warden.sweep()).queued).toBe(1);
    await harness.settle();
    expect(markerOf(fake, stale.id)?.stage).toBe('released');
    expect(fake.issue(REPO, n).labels).toEqual([REVIEW]);
    expect(compares(fake).map((r) => r.status)).toEqual([200]);
  });
});
