/**
 * Issues in review on the claims board in real headless Chromium (docs/protocol.md §14, §17):
 * the row of an issue carrying the needs-review label has a `needs review` badge whose title
 * names the stale session's work when the app knows it; an issue in review that nobody holds
 * is a row of its own, awaiting review, in the first render and in the refreshed one.
 */
import { describe, expect, it } from 'vitest';
import { claimComment, HOUR } from '../e2e/e2e-helpers.js';
import { waitFor } from '../helpers/app-harness.js';
import { boardHarness, claimIssue, REPO } from './board-harness.js';
import { launchChromium } from './chromium.js';

const REVIEW = 'status:needs-review';

describe('issues in review on the claims board in Chromium', () => {
  it('a needs-review badge on the row, naming the work; one by hand says the work is unknown', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    const { fake } = harness;
    // Bob's session went quiet seven hours ago, leaving 3 commits on feat/s-old.
    const head = fake.createBranch(REPO, 'feat/s-old', { ahead: 3 }).slice(0, 7);
    const left = fake.createIssue(REPO, { title: 'Left work' });
    const at = new Date(Date.now() - 7 * HOUR);
    fake.addComment(REPO, left, {
      author: 'bob',
      body: claimComment('s-old', { at }),
      createdAt: at,
      updatedAt: at,
    });
    // A maintainer marks an unheld issue, and one a live claim holds (the holder keeps it).
    const marked = fake.createIssue(REPO, { title: 'Marked by hand' });
    fake.addLabels(REPO, marked, [REVIEW], { actor: 'maria' });
    const held = claimIssue(fake, REPO, 'Held and marked', 'bob', 's-held');
    claimIssue(fake, REPO, 'Plain work', 'alice', 's-plain');
    await harness.settle();
    fake.addLabels(REPO, held, [REVIEW], { actor: 'maria' });
    await waitFor(() => fake.issue(REPO, left).labels.includes(REVIEW), 'the review label');
    await harness.settle();

    const browser = await launchChromium();
    onTestFinished(() => browser.close());
    const page = await browser.context.newPage();
    await page.clock.install();
    await page.goto(`${harness.appUrl}/claims`);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(/\/login\/oauth\/authorize/);
    await page.getByLabel('Signed in as').fill('alice');
    await page.getByRole('button', { name: /Authorize/ }).click();
    await page.waitForURL(`${harness.appUrl}/claims`);

    const rowOf = (title: string) => page.locator('#claim-rows tr', { hasText: title });
    const cell = (title: string, label: string) =>
      rowOf(title).locator(`td[data-label="${label}"]`).textContent();
    const badge = (title: string) => rowOf(title).locator('.badge-review');
    const check = async () => {
      expect(await page.locator('#status').textContent()).toMatch(
        /^2 live claims · 2 in review · updated/,
      );
      // The stale session's work, named in the badge's title.
      expect(await cell('Left work', 'Holder')).toBe('bob needs review');
      expect(await badge('Left work').getAttribute('title')).toBe(
        `3 commits on feat/s-old (${head}) await review`,
      );
      expect(await cell('Left work', 'Session')).toBe('s-old');
      expect(await cell('Left work', 'Branch')).toBe('feat/s-old');
      expect(await cell('Left work', 'Stage')).toBe('needs-review');
      expect(await cell('Left work', 'Time to stale')).toBe('awaiting review');
      expect(await rowOf('Left work').locator('meter').count()).toBe(0);
      // By hand: nobody's work is known.
      expect(await cell('Marked by hand', 'Holder')).toBe('— needs review');
      expect(await badge('Marked by hand').getAttribute('title')).toBe(
        'marked for review; the work is not known here',
      );
      // The live holder keeps its row, its stale bar, and gets the badge.
      expect(await cell('Held and marked', 'Holder')).toBe('bob needs review');
      expect(await cell('Held and marked', 'Session')).toBe('s-held');
      expect(await rowOf('Held and marked').locator('meter').count()).toBe(1);
      expect(await badge('Plain work').count()).toBe(0);
      // Live claims first, then the issues in review.
      expect(
        await page.locator('#claim-rows tr td[data-label="Issue"] a').allTextContents(),
      ).toEqual(['Held and marked', 'Plain work', 'Left work', 'Marked by hand']);
    };
    await check();
    // The refreshed table, rebuilt by the page's script from data.json, shows the same.
    await page.evaluate(() => {
      document.getElementById('claim-rows')?.replaceChildren();
    });
    await page.clock.runFor(15_000);
    await rowOf('Left work').waitFor();
    await check();
  });
});
