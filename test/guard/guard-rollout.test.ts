/**
 * The guard's writers under the rollout keys (docs/protocol.md §11), end to end on the
 * HTTP fake of GitHub: `enabled: false` writes nothing; `mode: observe` logs and counts the
 * check runs and heartbeat edits it would send, and sends none.
 */
import { describe, expect, it } from 'vitest';
import { HOUR, harnessFor, scrape } from '../e2e/e2e-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { type Harness, REPO } from '../helpers/app-harness.js';
import { bobsPull, edits, headRuns, pathClaim, seconds, seedConfig } from './guard-helpers.js';

/** A harness whose repository runs in `mode: observe`, with the app's info logs kept. */
const OBSERVING = {
  seed: seedConfig('mode: observe\n'),
  captureLogs: true,
  env: { LOG_LEVEL: 'info' },
};

/** The log line of the observed check run `name` (decided, not sent). */
const observedRun = (harness: Harness, name: string) =>
  harness.logLines.find(
    (l) => l.includes('observe mode: this write was decided') && l.includes(name),
  );

/** Alice's claim on `src/a.ts`, branch feat/s-a, its heartbeat an hour old. */
async function held(harness: Harness) {
  const { fake } = harness;
  const issue = fake.createIssue(REPO);
  const at = seconds(Date.now() - HOUR);
  const claim = fake.addComment(REPO, issue, {
    author: 'alice',
    body: pathClaim('s-a', ['src/a.ts'], { at }),
    createdAt: at,
    updatedAt: at,
  });
  await harness.settle();
  return { issue, claim };
}

/** Pushes `text` as the default branch's claims.yml (the app drops its cached config). */
async function pushConfig(harness: Harness, text: string): Promise<string> {
  const sha = harness.fake.push(REPO, {
    branch: 'main',
    pusher: 'maria',
    files: { '.github/claims.yml': text },
  });
  await harness.settle();
  return sha;
}

const checkWrites = (fake: FakeGitHub) =>
  fake.writes().filter((r) => r.path.startsWith(`/repos/${REPO}/check-runs`));
const observed = (metrics: string, kind: string) =>
  Number(new RegExp(`claims_observed_writes_total\\{kind="${kind}"\\} (\\d+)`).exec(metrics)?.[1]);

describe.concurrent('the guard under enabled: false (docs/protocol.md §11)', () => {
  it('the config check writes nothing', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const sha = await pushConfig(harness, 'enabled: false\n');
    expect(harness.fake.checkRuns(REPO, sha)).toEqual([]);
    expect(checkWrites(harness.fake)).toEqual([]);
  });

  it('a pull request changing a held file gets no check run', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    await held(harness);
    await pushConfig(harness, 'enabled: false\n');
    const pull = await bobsPull(harness, ['src/a.ts']);
    expect(headRuns(fake, pull)).toEqual([]);
    expect(checkWrites(fake)).toEqual([]);
  });

  it('a pull request in a repository without path claims gets no check run', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, { seed: seedConfig('enabled: false\n') });
    const { fake } = harness;
    const pull = await bobsPull(harness, ['a.ts']);
    expect(headRuns(fake, pull)).toEqual([]);
    expect(checkWrites(fake)).toEqual([]);
  });

  it("a push by the holder's author renews nothing", async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const { claim } = await held(harness);
    await pushConfig(harness, 'enabled: false\n');
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'alice' });
    await harness.settle();
    expect(edits(fake, claim.id)).toBe(0);
  });
});

describe.concurrent('the guard in mode: observe (docs/protocol.md §11)', () => {
  it('the config check is counted and logged, and not sent', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished, {
      captureLogs: true,
      env: { LOG_LEVEL: 'info' },
    });
    const sha = await pushConfig(harness, 'mode: observe\n');
    expect(harness.fake.checkRuns(REPO, sha)).toEqual([]);
    expect(checkWrites(harness.fake)).toEqual([]);
    expect(observed(await scrape(harness), 'check-run')).toBe(1);
    expect(harness.logLines.join('\n')).toContain('claim-warden/config');
  });

  it('a pull request changing a held file: the failing check is counted and logged, and not sent', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, OBSERVING);
    const { fake } = harness;
    await held(harness);
    const pull = await bobsPull(harness, ['src/a.ts']);
    expect(headRuns(fake, pull)).toEqual([]);
    expect(checkWrites(fake)).toEqual([]);
    expect(observed(await scrape(harness), 'check-run')).toBeGreaterThanOrEqual(1);
    const line = observedRun(harness, 'claim-warden/paths');
    expect(line).toContain('"conclusion":"failure"');
  });

  it('a pull request in a repository without path claims: the passing check is counted and logged, and not sent', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, OBSERVING);
    const { fake } = harness;
    const pull = await bobsPull(harness, ['a.ts']);
    expect(headRuns(fake, pull)).toEqual([]);
    expect(checkWrites(fake)).toEqual([]);
    expect(observed(await scrape(harness), 'check-run')).toBe(1);
    const line = observedRun(harness, 'claim-warden/paths');
    expect(line).toContain('"conclusion":"success"');
    expect(line).toContain('No path is claimed in this repository');
  });

  it("a push by the holder's author: the renewal is counted and logged, and not sent", async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, OBSERVING);
    const { fake } = harness;
    const { claim } = await held(harness);
    const body = fake.comment(claim.id)!.body;
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'alice' });
    await harness.settle();
    expect(edits(fake, claim.id)).toBe(0);
    expect(fake.comment(claim.id)!.body).toBe(body);
    expect(observed(await scrape(harness), 'edit-claim')).toBe(1);
    expect(
      harness.logLines.some(
        (l) => l.includes('observe mode: this write was decided') && l.includes('"edit-claim"'),
      ),
    ).toBe(true);
  });
});
