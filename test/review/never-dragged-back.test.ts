/**
 * docs/protocol.md §17 "never dragged back", as an outsider sees it: the work queue, the
 * claims API and comment claims on an issue that needs review, the owner's return, and the
 * label as the state (removed or added by hand).
 */
import { describe, expect, it } from 'vitest';
import { callApi, caller, claimBody, claimPath } from '../api/api-helpers.js';
import { claimComment, HOUR, harnessFor, markerOf } from '../e2e/e2e-helpers.js';
import { type Harness, REPO, waitFor } from '../helpers/app-harness.js';

const REVIEW = 'status:needs-review';

/** An issue whose stale claim by alice left `ahead` commits on feat/s-old: in review. */
async function inReview(harness: Harness, ahead = 3) {
  const { fake } = harness;
  const head = fake.createBranch(REPO, 'feat/s-old', { ahead });
  const n = fake.createIssue(REPO);
  const at = new Date(Date.now() - 7 * HOUR);
  const stale = fake.addComment(REPO, n, {
    author: 'alice',
    body: claimComment('s-old', { at }),
    createdAt: at,
    updatedAt: at,
  });
  await waitFor(() => fake.issue(REPO, n).labels.includes(REVIEW), 'the review label');
  await harness.settle();
  return { n, head, stale };
}

async function queue(harness: Harness, query: string) {
  const answer = await callApi(harness.appUrl, 'GET', `/issues?${query}`, {
    token: harness.fake.tokenFor('bob'),
  });
  expect(answer.status).toBe(200);
  return (answer.body.items as Array<{ issue: { number: number; needsReview?: boolean } }>).map(
    (item) => item.issue,
  );
}

function numbers(issues: readonly { number: number }[]) {
  return issues.map((issue) => issue.number);
}

describe.concurrent('never dragged back', () => {
  it('the queue never offers it; needsReview=true lists exactly it', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const free = harness.fake.createIssue(REPO);
    const { n } = await inReview(harness);
    expect(numbers(await queue(harness, 'claimable=true'))).toEqual([free]);
    const reviewing = await queue(harness, 'needsReview=true');
    expect(reviewing).toMatchObject([{ number: n, needsReview: true }]);
  });

  it('another agent is refused by the API (409 NEEDS_REVIEW) and by comment', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { n, head } = await inReview(harness);
    const bob = caller(harness.appUrl, fake, 'bob');
    const before = fake.writes().length;
    const refused = await bob.post(claimPath(n), claimBody('s-bob'));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('NEEDS_REVIEW');
    expect(refused.body.error.details.review).toEqual({
      branch: 'feat/s-old',
      aheadBy: 3,
      head: head.slice(0, 7),
      pull: null,
    });
    expect(refused.body.error.message).toMatch(/ask a maintainer to review it, or claim another/);
    // Nothing was written for the refused caller.
    expect(fake.writes().slice(before)).toEqual([]);

    const comment = fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-bob2') });
    await waitFor(() => markerOf(fake, comment.id)?.stage === 'released', 'the refusal');
    expect(markerOf(fake, comment.id)?.outcome).toBe('abandoned');
    expect(fake.comment(comment.id)?.body).toContain('this issue needs review');
    await harness.settle();
    expect(fake.issue(REPO, n).labels).toEqual([REVIEW]);
  });

  it('a takeover through the API of a stale claim with work is refused and starts the review', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, { env: { CLAIMS_SWEEP_INTERVAL: '1h' } });
    const { fake } = harness;
    fake.createBranch(REPO, 'feat/s-slow', { ahead: 1 });
    const n = fake.createIssue(REPO);
    const at = new Date(Date.now() - 7 * HOUR);
    // Posted while the app is not listening: no webhook, and no sweep for an hour.
    fake.pauseWebhooks();
    const stale = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-slow', { at }),
      createdAt: at,
      updatedAt: at,
    });
    const refused = await caller(harness.appUrl, fake, 'bob').post(claimPath(n), claimBody('s-b'));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('NEEDS_REVIEW');
    expect(refused.body.error.details.review).toMatchObject({ branch: 'feat/s-slow', aheadBy: 1 });
    expect(markerOf(fake, stale.id)?.stage).toBe('released');
    expect(fake.issue(REPO, n).labels).toEqual([REVIEW]);
  });

  it('the owner comes back: the same login’s claim holds and the label goes', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { n } = await inReview(harness);
    const alice = caller(harness.appUrl, fake, 'alice');
    const back = await alice.post(claimPath(n), claimBody('s-new'));
    expect(back.status).toBe(201);
    await harness.settle();
    expect(fake.issue(REPO, n).labels).toEqual(['status:in-progress']);
  });

  it('the label is the state: removed by hand, claimable; added by hand, refused', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { n } = await inReview(harness);
    fake.removeLabel(REPO, n, REVIEW, { actor: 'maria' });
    await harness.settle();
    expect(numbers(await queue(harness, 'claimable=true'))).toEqual([n]);
    const bob = caller(harness.appUrl, fake, 'bob');
    expect((await bob.post(claimPath(n), claimBody('s-bob'))).status).toBe(201);

    const other = fake.createIssue(REPO);
    fake.addLabels(REPO, other, [REVIEW], { actor: 'maria' });
    await harness.settle();
    expect(numbers(await queue(harness, 'claimable=true'))).toEqual([]);
    const refused = await bob.post(claimPath(other), claimBody('s-bob3'));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('NEEDS_REVIEW');
    expect(refused.body.error.details.review).toBeNull();
  });
});
