/**
 * Branch heartbeats and the config check end to end (docs/protocol.md §11): the real app on
 * the HTTP fake of GitHub. Each test starts its own fake and app.
 */
import { describe, expect, it } from 'vitest';
import { formatClaimTime } from '../../src/claims/marker.js';
import { HOUR, harnessFor, markerOf } from '../e2e/e2e-helpers.js';
import { type Harness, REPO } from '../helpers/app-harness.js';
import {
  apiCalls,
  bobsPull,
  edits,
  headRuns,
  pathClaim,
  seconds,
  seedConfig,
} from './guard-helpers.js';

/** Alice's claim on a new issue, branch feat/s-a, its heartbeat `ago` ms old. */
async function heldBranch(harness: Harness, ago: number) {
  const { fake } = harness;
  const issue = fake.createIssue(REPO);
  const at = seconds(Date.now() - ago);
  const claim = fake.addComment(REPO, issue, {
    author: 'alice',
    body: pathClaim('s-a', null, { at }),
    createdAt: at,
    updatedAt: at,
  });
  await harness.settle();
  expect(markerOf(fake, claim.id)?.stage).toBe('implementing');
  return { issue, claim, at };
}

describe.concurrent('branch heartbeats (docs/protocol.md §11)', () => {
  it("a push by the holder's author to its branch renews the marker and the Updated line to the push time", async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { claim, at } = await heldBranch(harness, HOUR);
    const pushedAt = seconds(Date.now() - 60_000);
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'alice', at: pushedAt });
    await harness.settle();

    const marker = markerOf(fake, claim.id)!;
    expect(marker.updated).toEqual(pushedAt);
    expect(marker).toMatchObject({ session: 's-a', stage: 'implementing', started: at });
    const body = fake.comment(claim.id)!.body;
    expect(body).toContain(`- Updated: ${formatClaimTime(pushedAt)}`);
    expect(body).toContain(`- Started: ${formatClaimTime(at)}`);
    expect(edits(fake, claim.id)).toBe(1);
  });

  it('two pushes within a tenth of the window cost one edit', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { claim } = await heldBranch(harness, HOUR);
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'alice' });
    await harness.settle();
    fake.clearRequests();
    // 36 minutes is a tenth of the default 6 h window.
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'alice', at: new Date(Date.now() + 1000) });
    await harness.settle();
    expect(edits(fake, claim.id)).toBe(0);
    // The renewal was indexed: the second push costs no GitHub call at all.
    expect(apiCalls(fake)).toEqual([]);
  });

  it('a claim renewed less than a tenth of the window ago is not written again', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { claim, at } = await heldBranch(harness, 30 * 60_000);
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'alice' });
    await harness.settle();
    expect(edits(fake, claim.id)).toBe(0);
    expect(markerOf(fake, claim.id)?.updated).toEqual(at);
  });

  it('a push by another account renews nothing, and costs no GitHub call', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { claim, at } = await heldBranch(harness, HOUR);
    fake.clearRequests();
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'bob' });
    await harness.settle();
    expect(edits(fake, claim.id)).toBe(0);
    expect(markerOf(fake, claim.id)?.updated).toEqual(at);
    expect(apiCalls(fake)).toEqual([]);
  });

  it('a push by a trusted bot renews the claim', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: (fake) => {
        fake.addUser('my-agent[bot]', { type: 'Bot', association: 'NONE' });
        seedConfig('trustedBots: ["my-agent[bot]"]\n')(fake);
      },
    });
    const { fake } = harness;
    const { claim } = await heldBranch(harness, HOUR);
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'my-agent[bot]' });
    await harness.settle();
    expect(edits(fake, claim.id)).toBe(1);
  });

  it('a push to a branch no claim names costs no GitHub call', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { claim } = await heldBranch(harness, HOUR);
    fake.clearRequests();
    fake.push(REPO, { branch: 'feat/other', pusher: 'alice' });
    await harness.settle();
    expect(apiCalls(fake)).toEqual([]);
    expect(edits(fake, claim.id)).toBe(0);
  });

  it('heartbeatOnPush: false renews nothing', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: seedConfig('heartbeatOnPush: false\n'),
    });
    const { fake } = harness;
    const { claim } = await heldBranch(harness, HOUR);
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'alice' });
    await harness.settle();
    expect(edits(fake, claim.id)).toBe(0);
  });
});

describe.concurrent('the config check (docs/protocol.md §11)', () => {
  it('a push changing claims.yml on the default branch gets a failing check naming each bad field', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const sha = fake.push(REPO, {
      branch: 'main',
      pusher: 'maria',
      files: { '.github/claims.yml': 'staleAfter: 1m\npathGuard: strict\nstalAfter: 2h\n' },
    });
    await harness.settle();
    const runs = fake.checkRuns(REPO, sha);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      name: 'claim-warden/config',
      conclusion: 'failure',
      output: { title: '.github/claims.yml has 3 problems' },
    });
    const bullets = (runs[0]!.output.summary ?? '').split('\n').filter((l) => l.startsWith('- '));
    expect(bullets.sort()).toEqual([
      '- pathGuard: must be one of fail, warn or off (got "strict")',
      '- staleAfter: must be a duration between 10m and 720h, such as 6h (got "1m")',
      '- unknown key "stalAfter" (did you mean "staleAfter"?)',
    ]);
  });

  it('a valid claims.yml passes, and the app uses it at once (its cached config dropped)', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    // The start-up resync cached "no config"; the push must make pathGuard: off count.
    const issue = fake.createIssue(REPO);
    fake.addComment(REPO, issue, { author: 'alice', body: pathClaim('s-a', ['src/a.ts']) });
    await harness.settle();
    const sha = fake.push(REPO, {
      branch: 'main',
      pusher: 'maria',
      files: { '.github/claims.yml': 'pathGuard: off\n' },
    });
    await harness.settle();
    expect(fake.checkRuns(REPO, sha)).toMatchObject([
      { name: 'claim-warden/config', conclusion: 'success' },
    ]);
    const pull = await bobsPull(harness, ['src/a.ts']);
    expect(headRuns(fake, pull)).toEqual([]);
  });

  it('a push changing claims.yml on another branch gets no config check', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    fake.clearRequests();
    const sha = fake.push(REPO, {
      branch: 'feat/config',
      pusher: 'maria',
      files: { '.github/claims.yml': 'pathGuard: strict\n' },
    });
    await harness.settle();
    expect(fake.checkRuns(REPO, sha)).toEqual([]);
    expect(apiCalls(fake)).toEqual([]);
  });
});
