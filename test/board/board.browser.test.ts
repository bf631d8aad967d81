/**
 * The claims board in real headless Chromium (docs/protocol.md §14): sign-in through the
 * fake GitHub's authorize page, what the page shows, its refresh without a reload, sign-out,
 * and the refusals. The app and the fake are the real servers over HTTP.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/app-harness.js';
import { beginSignIn, boardHarness, claimIssue, OTHER_REPO, REPO } from './board-harness.js';
import { type Chromium, type ChromiumOptions, launchChromium } from './chromium.js';

/**
 * A Chromium of the test's own, closed before the harness: Chromium keeps (and pre-opens)
 * connections to the app, which would hold the app's server open while it stops.
 */
async function chromiumFor(
  onFinished: (fn: () => Promise<void>) => void,
  options: ChromiumOptions = {},
): Promise<{ browser: Chromium; page: Page }> {
  const browser = await launchChromium(options);
  onFinished(() => browser.close());
  return { browser, page: await browser.context.newPage() };
}

/** Signs in on the board as `login` through GitHub's authorize page, as a person would. */
async function signInWithGitHub(page: Page, harness: Harness, login: string): Promise<void> {
  await page.goto(`${harness.appUrl}/claims`);
  await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
  await page.waitForURL(/\/login\/oauth\/authorize/);
  await page.getByLabel('Signed in as').fill(login);
  await page.getByRole('button', { name: /Authorize/ }).click();
  await page.waitForURL(`${harness.appUrl}/claims`);
}

/** The issue titles in the claims table, in order. */
async function titles(page: Page): Promise<string[]> {
  return page.locator('#claim-rows tr td[data-label="Issue"] a').allTextContents();
}

describe('the claims board in Chromium', () => {
  it('signs in with GitHub and shows exactly the claims the user may see', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'Fix the <b>widget</b>', 'bob', 's-bob', ['src/widget.ts']);
    claimIssue(harness.fake, OTHER_REPO, 'Globex plans', 'bob', 's-globex');
    await harness.settle();
    const { page } = await chromiumFor(onTestFinished);

    await signInWithGitHub(page, harness, 'alice');
    expect(await titles(page)).toEqual(['Fix the <b>widget</b>']);
    const headers = await page.locator('#claims thead th').allTextContents();
    expect(headers).toEqual([
      'Repository',
      'Issue',
      'Holder',
      'Session',
      'Branch',
      'Stage',
      'Paths',
      'Started',
      'Last heartbeat',
      'Time to stale',
    ]);
    const row = page.locator('#claim-rows tr').first();
    await expect.poll(() => row.locator('td[data-label="Holder"]').textContent()).toBe('bob');
    expect(await row.locator('td[data-label="Paths"]').textContent()).toBe('src/widget.ts');
    expect(await row.locator('meter').count()).toBe(1);
    expect(await page.locator('.who .login').textContent()).toBe('alice');
    expect(await page.content()).not.toContain('Globex plans');
  });

  it('shows a new claim within one refresh, without reloading the page', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'First claim', 'bob', 's-1');
    await harness.settle();
    const { page } = await chromiumFor(onTestFinished);
    await page.clock.install();
    await signInWithGitHub(page, harness, 'alice');
    expect(await titles(page)).toEqual(['First claim']);
    await page.evaluate(() => {
      (window as unknown as { boardTestMark: string }).boardTestMark = 'same page';
    });

    claimIssue(harness.fake, REPO, 'Second claim', 'alice', 's-2');
    await harness.settle();
    expect(await titles(page)).toEqual(['First claim']);
    await page.clock.runFor(15_000);
    await page.getByRole('link', { name: 'Second claim' }).waitFor();
    expect((await titles(page)).sort()).toEqual(['First claim', 'Second claim']);
    expect(
      await page.evaluate(() => (window as unknown as { boardTestMark?: string }).boardTestMark),
    ).toBe('same page');
    expect(await page.locator('#f-holder option').allTextContents()).toEqual([
      'All holders',
      'alice',
      'bob',
    ]);
  });

  it('a filter applies at once and the URL keeps it', async ({ onTestFinished }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'Alice work', 'alice', 's-1');
    claimIssue(harness.fake, REPO, 'Bob work', 'bob', 's-2');
    await harness.settle();
    const { page } = await chromiumFor(onTestFinished);
    await signInWithGitHub(page, harness, 'alice');
    await page.getByLabel('Holder').selectOption('bob');
    await expect.poll(() => titles(page)).toEqual(['Bob work']);
    expect(new URL(page.url()).searchParams.get('holder')).toBe('bob');
  });

  it('sign-out ends the session: the page asks to sign in and data.json answers 401', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'Private work', 'bob', 's-1');
    await harness.settle();
    const { page } = await chromiumFor(onTestFinished);
    await signInWithGitHub(page, harness, 'alice');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with GitHub' }).waitFor();
    expect(await page.content()).not.toContain('Private work');
    const status = await page.evaluate(async () => (await fetch('/claims/data.json')).status);
    expect(status).toBe(401);
  });

  it('a tampered session cookie gets no session', async ({ onTestFinished }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'Private work', 'bob', 's-1');
    await harness.settle();
    const { browser, page } = await chromiumFor(onTestFinished);
    await signInWithGitHub(page, harness, 'alice');
    const [session] = (await browser.context.cookies()).filter(
      (c) => c.name === 'cw_board_session',
    );
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    const value = session!.value;
    const tampered = value.slice(0, 20) + (value[20] === 'a' ? 'b' : 'a') + value.slice(21);
    await browser.context.addCookies([{ ...session!, value: tampered }]);
    await page.goto(`${harness.appUrl}/claims`);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).waitFor();
    expect(await page.content()).not.toContain('Private work');
  });

  it('a callback with a state this browser was not given gets no session', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    // Another browser began this sign-in; its callback URL is replayed here.
    const elsewhere = await beginSignIn(harness, 'alice');
    const { browser, page } = await chromiumFor(onTestFinished);
    await page.goto(`${harness.appUrl}/claims/login`);
    await page.waitForURL(/\/login\/oauth\/authorize/);
    await page.goto(elsewhere.callback.toString());
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign-in failed');
    const cookies = await browser.context.cookies();
    expect(cookies.map((c) => c.name)).not.toContain('cw_board_session');
  });

  it('without the OAuth settings the board is a 404 page naming them', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished, { board: false });
    const { page } = await chromiumFor(onTestFinished);
    const response = await page.goto(`${harness.appUrl}/claims`);
    expect(response?.status()).toBe(404);
    const text = await page.locator('main').textContent();
    expect(text).toContain('GITHUB_CLIENT_ID');
    expect(text).toContain('GITHUB_CLIENT_SECRET');
  });

  it.for([
    { render: 'the server', javaScriptEnabled: false },
    { render: 'the script', javaScriptEnabled: true },
  ])(
    'as $render renders it, cuts a long branch with an ellipsis and breaks paths only after a slash',
    async ({ javaScriptEnabled }, { onTestFinished }) => {
      const harness = await boardHarness(onTestFinished);
      const path = 'src/settings/appearance/dark-mode-for-the-settings-page/remember-the-choice.ts';
      claimIssue(
        harness.fake,
        REPO,
        'Dark mode',
        'alice',
        'dark-mode-for-the-settings-page-and-the-profile',
        [path, 'docs/appearance.md'],
      );
      await harness.settle();
      const { page } = await chromiumFor(onTestFinished, {
        viewport: { width: 1000, height: 800 },
        javaScriptEnabled,
      });
      if (javaScriptEnabled) await page.clock.install();
      await signInWithGitHub(page, harness, 'alice');
      if (javaScriptEnabled) {
        // The script rebuilds the rows at its first refresh: mark the server's rows to see it.
        await page.evaluate(() =>
          document.querySelector('#claim-rows tr')?.setAttribute('data-old', ''),
        );
        await page.clock.runFor(15_000);
        await page.locator('#claim-rows tr:not([data-old])').first().waitFor();
      }
      const branch = page.locator('#claim-rows td[data-label="Branch"] code').first();
      const cut = await branch.evaluate((node) => ({
        title: node.getAttribute('title'),
        text: node.textContent,
        overflow: getComputedStyle(node).textOverflow,
        clipped: node.scrollWidth > node.clientWidth,
      }));
      const full = 'feat/dark-mode-for-the-settings-page-and-the-profile';
      expect(cut).toEqual({ title: full, text: full, overflow: 'ellipsis', clipped: true });

      const lines = await page
        .locator('#claim-rows td[data-label="Paths"] code')
        .first()
        .evaluate((node) => {
          // Each name between slashes is one text node: none of them may span two lines.
          const names = [...node.childNodes].filter(
            (n) => n.nodeType === 3 && n.textContent !== '/',
          );
          const range = document.createRange();
          const split = names.filter((n) => {
            range.selectNodeContents(n);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
          });
          range.selectNodeContents(node);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          return {
            text: node.textContent,
            lines: tops.size,
            split: split.map((n) => n.textContent),
          };
        });
      expect(lines.text).toBe(path);
      expect(lines.lines).toBeGreaterThan(1);
      expect(lines.split).toEqual([]);
    },
  );

  it('fits a phone screen in dark mode, and works without JavaScript', async ({
    onTestFinished,
  }) => {
    const harness = await boardHarness(onTestFinished);
    claimIssue(harness.fake, REPO, 'Alice work', 'alice', 's-1', [
      'src/a-rather-long/path/name.ts',
    ]);
    claimIssue(harness.fake, REPO, 'Bob work', 'bob', 's-2');
    await harness.settle();
    const { page } = await chromiumFor(onTestFinished, {
      colorScheme: 'dark',
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
    });
    await signInWithGitHub(page, harness, 'alice');
    expect((await titles(page)).sort()).toEqual(['Alice work', 'Bob work']);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(13, 17, 23)');
    // The filter form submits as a plain GET without the script.
    await page.getByLabel('Holder').selectOption('bob');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/holder=bob/);
    expect(await titles(page)).toEqual(['Bob work']);
  });
});
