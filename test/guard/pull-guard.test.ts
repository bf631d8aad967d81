/**
 * The pull-request guard end to end (docs/protocol.md §11): the real app on the HTTP fake of
 * GitHub. Each test starts its own fake and app.
 */
import { describe, expect, it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { HOUR, harnessFor } from '../e2e/e2e-helpers.js';
import type { Harness } from '../helpers/app-harness.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { apiCalls, bobsPull, checkOf, headRuns, pathClaim, seedConfig } from './guard-helpers.js';

/** Issue 1 held by alice (session s-a, branch feat/s-a) on `src/a.ts` and `docs/`. */
async function heldRepo(harness: Harness, options: { at?: Date; backdate?: boolean } = {}) {
  const { fake } = harness;
  const issue = fake.createIssue(REPO, { title: 'Retry the queue' });
  const at = options.at;
  const claim = fake.addComment(REPO, issue, {
    author: 'alice',
    body: pathClaim('s-a', ['src/a.ts', 'docs/'], at ? { at } : {}),
    ...(at && options.backdate ? { createdAt: at, updatedAt: at } : {}),
  });
  await harness.settle();
  return { issue, claim };
}

/** Issue 1 held by alice (session s-a, branch feat/s-a) with no path line. */
async function plainRepo(harness: Harness) {
  const { fake } = harness;
  const issue = fake.createIssue(REPO);
  fake.addComment(REPO, issue, { author: 'alice', body: pathClaim('s-a', null) });
  await harness.settle();
}

describe.concurrent('the pull-request guard (docs/protocol.md §11)', () => {
  it('a pull request changing a held file fails its check, with file, issue, session, author and age', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { issue } = await heldRepo(harness, { at: new Date(Date.now() - 2 * HOUR) });
    const pull = await bobsPull(harness, [
      'README.md',
      'docs/guide/intro.md',
      'src/a.ts',
      'src/b.ts',
    ]);

    const run = checkOf(fake, pull);
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(run.output.title).toBe('2 changed files lie in paths held by other claims');
    const rows = (run.output.summary ?? '').split('\n').filter((l) => l.startsWith('| `'));
    expect(rows).toEqual([
      `| \`docs/guide/intro.md\` | acme/widgets#${issue} | \`docs/\` | \`s-a\` | \`alice\` | 2 h ago |`,
      `| \`src/a.ts\` | acme/widgets#${issue} | \`src/a.ts\` | \`s-a\` | \`alice\` | 2 h ago |`,
    ]);
  });

  it.for([
    ['warn', 'neutral'],
    ['fail', 'failure'],
  ] as const)('pathGuard: %s concludes %s', async ([guard, conclusion], { onTestFinished }) => {
    const harness = await harnessFor(onTestFinished, { seed: seedConfig(`pathGuard: ${guard}\n`) });
    const { fake } = harness;
    await heldRepo(harness);
    const pull = await bobsPull(harness, ['src/a.ts']);
    expect(checkOf(fake, pull).conclusion).toBe(conclusion);
  });

  it.for([
    ['with', heldRepo],
    ['without', plainRepo],
  ] as const)(
    'pathGuard: off sets no check run, %s path claims',
    async ([, seed], { onTestFinished }) => {
      const harness = await harnessFor(onTestFinished, { seed: seedConfig('pathGuard: off\n') });
      const { fake } = harness;
      await seed(harness);
      const pull = await bobsPull(harness, ['src/a.ts']);
      expect(headRuns(fake, pull)).toEqual([]);
    },
  );

  it('a pull request touching no held path passes', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    await heldRepo(harness);
    const pull = await bobsPull(harness, ['src/ab.ts', 'docsx/a.md']);
    expect(checkOf(fake, pull)).toMatchObject({
      conclusion: 'success',
      output: { title: 'No held paths touched' },
    });
  });

  it('a pull request in a repository without path claims passes, its files not read', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    await plainRepo(harness);
    fake.clearRequests();
    const pull = await bobsPull(harness, ['a.ts']);
    const sha = fake.pullRecord(REPO, pull).head.sha;
    expect(apiCalls(fake)).toEqual([
      `GET /repos/${REPO}/commits/${sha}/check-runs`,
      `POST /repos/${REPO}/check-runs`,
    ]);
    expect(checkOf(fake, pull)).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      output: {
        title: 'No held paths touched',
        summary: 'No path is claimed in this repository, so no changed file lies in a held path.',
      },
    });
  });

  it('without path claims too, a new commit gets its own run and an edit keeps the one run', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    await plainRepo(harness);
    const pull = await bobsPull(harness, ['a.ts']);
    const first = fake.pullRecord(REPO, pull).head.sha;
    const second = fake.pushToPullRequest(REPO, pull, { files: ['a.ts', 'b.ts'] });
    await harness.settle();
    fake.editPullRequest(REPO, pull, 'Better title');
    await harness.settle();
    expect(fake.checkRuns(REPO, first)).toMatchObject([{ conclusion: 'success' }]);
    expect(fake.checkRuns(REPO, second)).toMatchObject([{ conclusion: 'success' }]);
    // The edit found the run of its head saying the same: nothing written again.
    expect(fake.count('POST', `/repos/${REPO}/check-runs`)).toBe(2);
    expect(fake.count('PATCH', /\/check-runs\//)).toBe(0);
    expect(fake.count('GET', /\/pulls\/\d+\/files$/)).toBe(0);
  });

  it("a pull request from the holder's own branch is that claim's work, and its check says so", async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { issue } = await heldRepo(harness);
    const pull = fake.openPullRequest(REPO, {
      head: 'feat/s-a',
      author: 'alice',
      files: ['src/a.ts', 'docs/x.md'],
    });
    await harness.settle();
    const run = checkOf(fake, pull);
    expect(run.conclusion).toBe('success');
    expect(run.output.title).toBe(`The work of acme/widgets#${issue}`);
    expect(run.output.summary).toContain(
      `This pull request is the work of acme/widgets#${issue}: its head branch \`feat/s-a\` is the branch of the claim of \`alice\` (session \`s-a\`).`,
    );
  });

  it('a fork whose branch has the same name is not the claim’s work', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    fake.addRepo('mallory/widgets', { installationId: null });
    await heldRepo(harness);
    const pull = fake.openPullRequest(REPO, {
      head: 'feat/s-a',
      headRepo: 'mallory/widgets',
      author: 'mallory',
      files: ['src/a.ts'],
    });
    await harness.settle();
    expect(checkOf(fake, pull).conclusion).toBe('failure');
  });

  it('one check run per head commit: edits update it, a new commit gets its own', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    await heldRepo(harness);
    const pull = await bobsPull(harness, ['src/a.ts']);
    const first = fake.pullRecord(REPO, pull).head.sha;
    fake.editPullRequest(REPO, pull, 'Renamed');
    await harness.settle();
    expect(fake.checkRuns(REPO, first)).toHaveLength(1);
    // Nothing changed: the run already says so, and is not written again.
    expect(fake.count('PATCH', /\/check-runs\//)).toBe(0);

    const second = fake.pushToPullRequest(REPO, pull, { files: ['src/c.ts'], pusher: 'bob' });
    await harness.settle();
    expect(fake.checkRuns(REPO, first)).toHaveLength(1);
    expect(fake.checkRuns(REPO, first)[0]!.conclusion).toBe('failure');
    expect(fake.checkRuns(REPO, second)).toHaveLength(1);
    expect(fake.checkRuns(REPO, second)[0]!.conclusion).toBe('success');
  });

  it('files are read 100 a page', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    await heldRepo(harness);
    const files = Array.from({ length: 250 }, (_, i) => `lib/f${String(i).padStart(3, '0')}.ts`);
    const pull = await bobsPull(harness, [...files, 'src/a.ts']);
    expect(fake.count('GET', `/repos/${REPO}/pulls/${pull}/files`)).toBe(3);
    expect(checkOf(fake, pull).conclusion).toBe('failure');
  });

  it('GitHub lists 3,000 files at most: the check says the rest was not seen', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    await heldRepo(harness);
    const files = Array.from({ length: 3100 }, (_, i) => `lib/f${String(i).padStart(4, '0')}.ts`);
    // `src/a.ts` sorts after every `lib/` file: past GitHub's cap.
    const pull = await bobsPull(harness, [...files, 'src/a.ts']);
    expect(fake.count('GET', `/repos/${REPO}/pulls/${pull}/files`)).toBe(30);
    const run = checkOf(fake, pull);
    expect(run.conclusion).toBe('success');
    expect(run.output.summary).toContain('GitHub lists only the first 3000 changed files');
  });

  it.for([
    'released by its session',
    'finalised when its issue closes',
    'gone stale',
    'moved off the file by its path line',
    'deleted with its issue',
  ] as const)(
    'a flagged pull request turns green without a push when the holder is %s',
    async (how, { onTestFinished }) => {
      const harness = await harnessFor(onTestFinished);
      const { fake } = harness;
      // Live when posted: its heartbeat is 6 s short of the default 6 h window, so the sweep
      // (every second here) finalises it as stale soon after.
      const stale = how === 'gone stale';
      const at = new Date(Date.now() - (stale ? 6 * HOUR - 6_000 : HOUR));
      const { issue, claim } = await heldRepo(harness, { at, backdate: stale });
      const pull = await bobsPull(harness, ['src/a.ts']);
      const sha = fake.pullRecord(REPO, pull).head.sha;
      expect(checkOf(fake, pull).conclusion).toBe('failure');

      if (how === 'released by its session') {
        const marker = parseClaimMarker(fake.comment(claim.id)!.body)!;
        fake.editComment(
          claim.id,
          renderClaimComment(
            { ...marker, stage: 'released', outcome: 'landed', updated: new Date() },
            { paths: ['src/a.ts', 'docs/'] },
          ),
        );
      } else if (how === 'moved off the file by its path line') {
        const marker = parseClaimMarker(fake.comment(claim.id)!.body)!;
        fake.editComment(claim.id, renderClaimComment(marker, { paths: ['docs/'] }));
      } else if (how === 'deleted with its issue') {
        fake.deleteIssue(REPO, issue);
      } else if (how === 'finalised when its issue closes') {
        fake.closeIssue(REPO, issue);
      } else {
        await waitFor(
          () => parseClaimMarker(fake.comment(claim.id)!.body)?.stage === 'released',
          'the stale finalisation',
        );
      }
      await harness.settle();

      expect(fake.pullRecord(REPO, pull).head.sha).toBe(sha);
      expect(checkOf(fake, pull)).toMatchObject({
        conclusion: 'success',
        output: { title: 'No held paths touched' },
      });
      expect(fake.checkRuns(REPO, sha)).toHaveLength(1);
    },
  );

  it('a head commit GitHub no longer knows (force-pushed away) is asked about once, not retried', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    await heldRepo(harness);
    fake.pauseWebhooks();
    const pull = fake.openPullRequest(REPO, {
      head: 'feat/bob',
      author: 'bob',
      files: ['src/a.ts'],
    });
    const { sha } = fake.pullRecord(REPO, pull).head;
    fake.pulls.commits.get(REPO.toLowerCase())?.delete(sha);
    fake.resumeWebhooks();
    await harness.settle();

    const asked = `/repos/${REPO}/commits/${sha}/check-runs`;
    expect(fake.requests.filter((r) => r.path.startsWith(asked)).map((r) => r.status)).toEqual([
      422,
    ]);
    expect(fake.count('POST', `/repos/${REPO}/check-runs`)).toBe(0);
    // The next push is a new head, checked as usual.
    fake.pushToPullRequest(REPO, pull);
    await harness.settle();
    expect(checkOf(fake, pull).conclusion).toBe('failure');
  });
});
