/**
 * Writes docs/board.png: the claims board with a few claims, as alice sees it, in headless
 * Chromium against the fake GitHub. Run by hand: `npx tsx test/board/board-screenshot.ts`.
 */
import { renderClaimComment } from '../../src/claims/comment.js';
import type { Stage } from '../../src/claims/types.js';
import { startHarness } from '../helpers/app-harness.js';
import { OTHER_REPO } from './board-harness.js';
import { launchChromium } from './chromium.js';

const MINUTE = 60_000;
const GADGETS = 'acme/gadgets';

const harness = await startHarness({
  seed: (fake) => {
    fake.addRepo(GADGETS);
    fake.addInstallation({ id: 9_999, account: 'globex', repos: [OTHER_REPO] });
    fake.addUser('alice', { association: 'COLLABORATOR', repos: { [OTHER_REPO]: 'NONE' } });
    fake.addUser('codex-loop[bot]', { type: 'Bot' });
    fake.addUser('dana', { association: 'MEMBER' });
    fake.addUser('Copilot', { type: 'Bot' });
  },
  env: {
    GITHUB_CLIENT_ID: 'Iv1.0000000000000001',
    GITHUB_CLIENT_SECRET: 'fake-oauth-client-secret',
  },
});
const { fake } = harness;

function claim(
  repo: string,
  title: string,
  author: string,
  session: string,
  stage: Stage,
  agoMinutes: number,
  paths: string[] = [],
): number {
  const at = new Date(Date.now() - agoMinutes * MINUTE);
  const n = fake.createIssue(repo, { title });
  const [marker, ...rest] = renderClaimComment({
    session,
    lane: 'lane-1',
    branch: `feat/${title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 24)}`,
    started: new Date(at.getTime() - 30 * MINUTE),
    updated: at,
    stage,
    assignee: 'claim',
  }).split('\n');
  const pathLine = paths.length ? [`<!-- claim-paths v=1 paths=${paths.join(',')} -->`] : [];
  fake.addComment(repo, n, {
    author,
    body: [marker, ...pathLine, ...rest].join('\n'),
    createdAt: new Date(at.getTime() - 30 * MINUTE),
    updatedAt: at,
  });
  return n;
}

claim(
  'acme/widgets',
  'Retry queue drops jobs on restart',
  'alice',
  'h:5f4dcc3b5aa7',
  'implementing',
  12,
  ['src/queue/retry.ts', 'src/queue/retry.test.ts'],
);
claim('acme/widgets', 'Dark mode for the settings page', 'bob', 'h:098f6bcd4621', 'review', 95, [
  'web/settings/',
]);
claim(GADGETS, 'Flaky upload test on Windows', 'dana', 'h:ad0234829205', 'fix-round-2', 250);
claim(GADGETS, 'Rate-limit the export endpoint', 'bob', 'h:8ad8757baa8c', 'blocked', 330, [
  'src/export.ts',
]);
claim('acme/widgets', 'Document the plugin API', 'maria', 'h:e4da3b7fbbce', 'claimed', 3);
// A hosted agent assigned by a maintainer (docs/protocol.md §18).
const copilot = fake.createIssue('acme/widgets', { title: 'Upgrade the webhook parser' });
fake.assign('acme/widgets', copilot, ['Copilot'], { actor: 'maria' });
// A claim that went stale leaving commits on its branch (in review, §17), and one that lost
// a race: the last 24 hours.
fake.createBranch(GADGETS, 'feat/cache-the-avatar-lookups', { ahead: 3 });
claim(GADGETS, 'Cache the avatar lookups', 'maria', 'h:1679091c5a88', 'implementing', 7 * 60);
const raced = claim('acme/widgets', 'Speed up the sweep', 'alice', 'h:c9f0f895fb98', 'claimed', 40);
fake.addComment('acme/widgets', raced, {
  author: 'bob',
  body: renderClaimComment({
    session: 'h:45c48cce2e2d',
    lane: 'lane-2',
    branch: 'feat/sweep',
    started: new Date(),
    updated: new Date(),
    stage: 'claimed',
    assignee: 'claim',
  }),
});
claim(OTHER_REPO, 'Not visible to alice', 'bob', 'h:d3d9446802a4', 'implementing', 10);
await harness.settle();

const browser = await launchChromium({ viewport: { width: 1360, height: 900 } });
try {
  const page = await browser.context.newPage();
  await page.goto(`${harness.appUrl}/claims`);
  await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
  await page.getByLabel('Signed in as').fill('alice');
  await page.getByRole('button', { name: /Authorize/ }).click();
  await page.waitForURL(`${harness.appUrl}/claims`);
  await page.screenshot({ path: 'docs/board.png', fullPage: true });
  console.log('wrote docs/board.png');
} finally {
  await browser.close();
  await harness.close();
}
