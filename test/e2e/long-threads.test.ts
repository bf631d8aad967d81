/**
 * A long thread does not make an issue unverifiable (docs/protocol.md §6): the app reads
 * every thread GitHub still takes comments on, page by page and conditionally, so a passer-by
 * posting past a thousand comments neither hides a claim nor stops the app enforcing one.
 * Through the real server and the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { caller, claimPath } from '../api/api-helpers.js';
import { REPO, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import { claimComment, harnessFor, IN_PROGRESS } from './e2e-helpers.js';

describe.concurrent('a thread past a thousand comments', () => {
  it('1,001 plain comments, then a marker claim: enforced, and the API shows the holder (not 503)', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, webhookUrl, settle } = await harnessFor(onTestFinished);
    const n = fake.createIssue(REPO);
    await settle();
    // The flood, recorded by GitHub but not delivered: the app meets it at the claim's reconcile.
    fake.setWebhookTarget({ capture: true });
    for (let i = 0; i < 1001; i++)
      fake.addComment(REPO, n, { author: 'mallory', body: `+1 (${i})` });
    fake.setWebhookTarget({ url: webhookUrl, secret: WEBHOOK_SECRET });
    const claim = fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-bob') });
    await settle();

    const issue = fake.issue(REPO, n);
    expect(issue.labels).toContain(IN_PROGRESS);
    expect(issue.assignees).toEqual(['bob']);
    const read = await caller(appUrl, fake, 'alice').get(claimPath(n));
    expect(read.status).toBe(200);
    expect(read.body.claim).toMatchObject({ commentId: claim.id, author: 'bob' });
  });
});
