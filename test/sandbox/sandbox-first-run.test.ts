/**
 * `npm run sandbox` as a newcomer reads it: a timeline whose times never
 * go backwards, mallory's forgery told as ignored (not as a claim she holds), the two
 * variables that point `claim-warden` at the sandbox, and a board that can be signed in to
 * with the fake GitHub's sign-in page. The board's screenshot is written to
 * docs/sandbox-board.png, taken in Chromium.
 */

import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { instructions, startSandbox } from '../../sandbox/sandbox.js';
import type { Stack } from '../../sandbox/stack.js';
import { playStory, STORY_REPO } from '../../sandbox/story.js';
import { launchChromium } from '../board/chromium.js';

const run = promisify(execFile);
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

/** The printed commands: lines indented by two spaces, a trailing `\\` joining the next. */
function commandBlocks(lines: readonly string[]): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    // A command starts two spaces in; its continuation lines may be indented further.
    const command = (current.length > 0 ? /^\s+(\S.*)$/ : /^ {2}(\S.*)$/).exec(line)?.[1];
    if (command === undefined) continue;
    current.push(command);
    if (!command.endsWith('\\')) {
      blocks.push(current.join('\n'));
      current = [];
    }
  }
  return blocks;
}

/** Runs `script` in bash from the checkout, as a reader pasting it would; fails on an error. */
async function shell(script: string): Promise<string> {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() },
    timeout: 60_000,
  });
  return stdout;
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

  it('the commands it prints work as printed, in a shell, from the checkout', async () => {
    const stack = await sandbox();
    const byCurl = stack.fake.createIssue(STORY_REPO, { title: 'Claimed with curl' });
    const byClient = stack.fake.createIssue(STORY_REPO, { title: 'Claimed with the client' });

    // The curl claim, as printed (its continuation lines joined by the shell).
    const curl = commandBlocks(instructions(stack, byCurl)).find((b) => b.includes('-X POST'));
    expect(curl).toBeDefined();
    await shell(curl!);
    await stack.settle();
    expect(stack.fake.issue(STORY_REPO, byCurl).assignees).toEqual(['alice']);

    // The client's lines: the two variables, then claim, then release.
    const blocks = commandBlocks(instructions(stack, byClient));
    const exported = blocks.find((b) => b.startsWith('export GITHUB_API_URL='));
    const claim = blocks.find((b) => b.includes(`claim ${STORY_REPO}#${byClient}`));
    const release = blocks.find((b) => b.includes(`release ${STORY_REPO}#${byClient}`));
    expect(exported).toContain(`GITHUB_TOKEN=${stack.fake.tokenFor('alice')}`);
    expect(claim).toBeDefined();
    expect(release).toBeDefined();
    await shell(`${exported}\n${claim}`);
    await stack.settle();
    expect(stack.fake.issue(STORY_REPO, byClient).assignees).toEqual(['alice']);
    await shell(`${exported}\n${release}`);
    await stack.settle();
    expect(stack.fake.issue(STORY_REPO, byClient).assignees).toEqual([]);
  }, 120_000);

  it("the client's staleAt is the app's: both read the repository's stale window", async () => {
    const stack = await sandbox();
    const n = stack.fake.createIssue(STORY_REPO, { title: 'When does it go stale?' });
    const token = stack.fake.tokenFor('alice');
    const exported = `export GITHUB_API_URL=${stack.fake.apiUrl} GITHUB_TOKEN=${token}`;
    const client = 'npx tsx src/client/cli/cli.ts';
    const claimed = JSON.parse(
      await shell(
        `${exported}\n${client} claim ${STORY_REPO}#${n} --session s-1 --lane main --branch fix/${n} --json`,
      ),
    ) as { claim: { staleAt: string; heartbeat: string } };
    await stack.settle();

    const answer = await fetch(
      `${stack.appUrl}/api/claims/v1/repos/${STORY_REPO}/issues/${n}/claim`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const app = (await answer.json()) as { claim: { staleAt: string } };
    const { staleAt, heartbeat } = claimed.claim;
    expect(staleAt).toBe(app.claim.staleAt);
    // Exactly one window old is still live: stale from the next second.
    expect(Date.parse(staleAt) - Date.parse(heartbeat)).toBe(10 * 60_000 + 1000);

    // Through the app (CLAIM_WARDEN_URL), the client shows the app's answer.
    const viaApp = JSON.parse(
      await shell(
        `${exported} CLAIM_WARDEN_URL=${stack.appUrl}\n${client} status ${STORY_REPO}#${n} --session s-1 --json`,
      ),
    ) as { claim: { staleAt: string } };
    expect(viaApp.claim.staleAt).toBe(app.claim.staleAt);
  }, 120_000);

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
