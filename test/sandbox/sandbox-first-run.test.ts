/**
 * `npm run sandbox` as a newcomer reads it: a timeline whose times never
 * go backwards, mallory's forgery told as ignored (not as a claim she holds), the two
 * variables that point `claim-warden` at the sandbox, and a board that can be signed in to
 * with the fake GitHub's sign-in page. The board's screenshot is written to
 * docs/sandbox-board.png, taken in Chromium.
 */

import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { instructions, startSandbox } from '../../sandbox/sandbox.js';
import type { Stack } from '../../sandbox/stack.js';
import { playStory, STORY_REPO } from '../../sandbox/story.js';
import { cli } from '../../src/client/cli/cli.js';
import { launchChromium } from '../board/chromium.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
// docs/sandbox-board.png is rewritten only when asked (UPDATE_SCREENSHOTS=1): a test run must
// not leave the checkout changed. Otherwise the screenshot goes to a temporary folder.
const SCREENSHOT = process.env.UPDATE_SCREENSHOTS
  ? join(ROOT, 'docs/sandbox-board.png')
  : join(tmpdir(), `claim-warden-sandbox-board-${process.pid}.png`);

const stacks: Stack[] = [];
afterAll(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
});

async function sandbox(): Promise<Stack> {
  const stack = await startSandbox();
  stacks.push(stack);
  return stack;
}

/** The elapsed time of a timeline line (`+ 11.8s  actor ...`), if it has one. */
function elapsedOf(line: string): number | undefined {
  const m = /^\+\s*(\d+\.\d)s /.exec(line);
  return m ? Number(m[1]) : undefined;
}

describe('the sandbox, first run', () => {
  it("the story's timeline never goes backwards, and the forgery reads as ignored", async () => {
    const stack = await sandbox();
    const lines: string[] = [];

    await playStory(stack, (line) => lines.push(line));

    const times = lines.map(elapsedOf).filter((t): t is number => t !== undefined);
    expect(times.length).toBeGreaterThan(10);
    for (let i = 1; i < times.length; i++) {
      expect(times[i], `line ${i}: ${times.join(' ')}`).toBeGreaterThanOrEqual(times[i - 1]!);
    }
    const forgery = lines.find((l) => l.includes("mallory's forgery"));
    expect(forgery).toBeDefined();
    expect(forgery).toMatch(/ignored/);
    expect(forgery).not.toMatch(/: claimed$/);
  }, 60_000);

  it('prints the two variables that point claim-warden at the sandbox, and they work', async () => {
    const stack = await sandbox();
    const issue = stack.fake.createIssue(STORY_REPO, { title: 'Try it yourself' });

    const text = instructions(stack, issue).join('\n');

    const apiUrl = new RegExp(`GITHUB_API_URL=${stack.fake.apiUrl.replace(/[.]/g, '\\.')}\\b`);
    expect(text).toMatch(apiUrl);
    const token = /GITHUB_TOKEN=(\S+)/.exec(text)?.[1];
    expect(token).toBe(stack.fake.tokenFor('alice'));
    expect(text).toContain(`claim-warden claim ${STORY_REPO}#${issue}`);
    // The printed variables, as a shell would pass them, make a claim the app then enforces.
    let out = '';
    const code = await cli(
      [
        'claim',
        `${STORY_REPO}#${issue}`,
        '--session',
        'my-session',
        '--lane',
        'main',
        '--branch',
        `fix/${issue}`,
      ],
      {
        runtime: {
          env: { GITHUB_API_URL: stack.fake.apiUrl, GITHUB_TOKEN: token! },
          now: () => new Date(),
          hostname: () => 'sandbox-host',
          deadlineMs: 10_000,
          gh: async () => null,
        },
        readStdin: async () => null,
        stdout: (t) => {
          out += t;
        },
        stderr: (t) => {
          out += t;
        },
        serveMcp: async () => undefined,
      },
    );
    expect(code, out).toBe(0);
    await stack.settle();
    expect(stack.fake.issue(STORY_REPO, issue).assignees).toEqual(['alice']);
  }, 60_000);

  it('the board is on: sign in through the fake GitHub and see the claims', async () => {
    const stack = await sandbox();
    const issue = stack.fake.createIssue(STORY_REPO, { title: 'Try it yourself' });
    stack.fake.addComment(STORY_REPO, issue, {
      author: 'alice',
      body: `<!-- praetor-claim v=1 session=my-session lane=main branch=fix/${issue} started=${new Date().toISOString().slice(0, 19)}Z updated=${new Date().toISOString().slice(0, 19)}Z stage=claimed assignee=claim -->`,
    });
    await stack.settle();
    const text = instructions(stack, issue).join('\n');
    expect(text).toContain(`${stack.appUrl}/claims`);
    expect(text).toMatch(/sign in as alice/i);

    const browser = await launchChromium({ viewport: { width: 1280, height: 720 } });
    try {
      const page = await browser.context.newPage();
      await page.goto(`${stack.appUrl}/claims`);
      await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
      await page.getByLabel('Signed in as').fill('alice');
      await page.getByRole('button', { name: /Authorize/ }).click();
      await page.waitForURL(`${stack.appUrl}/claims`);
      await expect(page.getByText('Try it yourself').first().isVisible()).resolves.toBe(true);
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      const png = await page.screenshot({ path: SCREENSHOT, fullPage: true });
      // A PNG's signature: the board was drawn, not an error page's blank.
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(png.length).toBeGreaterThan(10_000);
    } finally {
      await browser.close();
    }
  }, 90_000);
});
