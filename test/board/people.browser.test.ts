/**
 * People's claims on the claims board in real headless Chromium (docs/protocol.md §14, §16):
 * a person's claim is a row of its own kind, with a `person` badge, no session or branch,
 * and no stale bar when it does not expire, in the first render and in the refreshed one.
 * The person holder is put in the app's index as a reconcile with people's claims records it.
 */
import { describe, expect, it } from 'vitest';
import { indexedPersonOf } from '../../src/read-model/indexed-claim-of.js';
import { boardHarness, claimIssue, REPO } from './board-harness.js';
import { launchChromium } from './chromium.js';

const DAY = 24 * 3_600_000;

describe('people on the claims board in Chromium', () => {
  it('shows a person’s claim with a person badge, no session, and no time to stale', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'Agent work', 'bob', 's-bob');
    const persons = harness.fake.createIssue(REPO, { title: 'Carol’s work', assignees: ['carol'] });
    await harness.settle();
    const [owner, repo] = REPO.split('/') as [string, string];
    const now = new Date();
    const carol = {
      kind: 'person' as const,
      author: 'carol',
      started: new Date(now.getTime() - DAY),
      heartbeat: new Date(now.getTime() - 3_600_000),
      assignedBy: 'maintainer',
      pinned: true,
      expires: false,
      url: `https://github.com/${REPO}/issues/${persons}`,
    };
    const key = { installationId: harness.installationId, owner, repo, number: persons };
    await harness.app.warden.store.setIssueClaim(key, indexedPersonOf(carol, 14 * DAY));

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
    const check = async () => {
      const person = rowOf('Carol’s work');
      expect(await person.locator('td[data-label="Holder"]').textContent()).toBe('carol person');
      expect(await person.locator('.badge-person').count()).toBe(1);
      expect(await person.locator('td[data-label="Session"]').textContent()).toBe('—');
      expect(await person.locator('td[data-label="Branch"]').textContent()).toBe('—');
      expect(await person.locator('td[data-label="Time to stale"]').textContent()).toBe(
        'does not expire',
      );
      const agent = rowOf('Agent work');
      expect(await agent.locator('.badge-person').count()).toBe(0);
      expect(await agent.locator('td[data-label="Session"]').textContent()).toBe('s-bob');
      expect(await agent.locator('meter').count()).toBe(1);
    };
    await check();
    // The refreshed table, rebuilt by the page's script from data.json, shows the same.
    await page.evaluate(() => {
      document.getElementById('claim-rows')?.replaceChildren();
    });
    await page.clock.runFor(15_000);
    await rowOf('Carol’s work').waitFor();
    await check();
  });
});
