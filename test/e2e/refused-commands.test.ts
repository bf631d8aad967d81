/**
 * A passer-by cannot freeze an issue (docs/protocol.md §16): refused `/claim`s get one reply
 * per person per issue within `people.staleAfter`, so the app's replies never multiply the
 * passer-by's comments. Through the real server and the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { REPO, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import { harnessFor } from './e2e-helpers.js';

describe.concurrent('a passer-by repeating /claim', () => {
  it('501 refused /claims get one reply, and one more later still none', async ({
    onTestFinished,
  }) => {
    const { fake, webhookUrl, settle } = await harnessFor(onTestFinished, {
      seed: (f) => f.setFile(REPO, '.github/claims.yml', 'people:\n  enabled: true\n'),
    });
    const n = fake.createIssue(REPO);
    await settle();
    // 500 recorded by GitHub but not delivered; the 501st is, and its reconcile meets them all.
    fake.setWebhookTarget({ capture: true });
    for (let i = 0; i < 500; i++) fake.addComment(REPO, n, { author: 'mallory', body: '/claim' });
    fake.setWebhookTarget({ url: webhookUrl, secret: WEBHOOK_SECRET });
    fake.addComment(REPO, n, { author: 'mallory', body: '/claim' });
    await settle();
    const replies = () =>
      fake
        .comments(REPO, n)
        .filter((c) => c.user.login === fake.botLogin && parseClaimMarker(c.body) === null);
    expect(replies()).toHaveLength(1);
    expect(replies()[0]!.body).toContain('@mallory');

    fake.addComment(REPO, n, { author: 'mallory', body: '/claim' });
    await settle();
    expect(replies()).toHaveLength(1);
    expect(fake.comments(REPO, n)).toHaveLength(503);
    expect(fake.issue(REPO, n).assignees).toEqual([]);
  });
});
