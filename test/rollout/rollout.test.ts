/**
 * docs/protocol.md §15, rolling out: `mode: observe` decides, logs and counts what it would
 * write and writes nothing; `enabled: false` leaves a repository alone. The real app on the
 * fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { appWrites, calls, claimComment, HOUR, harnessFor, scrape } from '../e2e/e2e-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { REPO } from '../helpers/app-harness.js';

/** Alice's live claim and bob's later one, which loses: three writes when enforced. */
function raceOn(fake: FakeGitHub): number {
  const n = fake.createIssue(REPO);
  const at = new Date(Date.now() - HOUR);
  fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1', { at }), createdAt: at });
  fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-2', { at }), createdAt: at });
  return n;
}

describe.concurrent('rolling out', () => {
  it('a repository in observe mode counts the writes it would make and makes none', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: (fake) => fake.setFile(REPO, '.github/claims.yml', 'mode: observe\n'),
    });
    const { fake } = harness;
    fake.clearRequests();
    const n = raceOn(fake);
    await harness.settle();

    expect(appWrites(fake)).toEqual([]);
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [] });
    const metrics = await scrape(harness);
    for (const kind of ['add-label', 'assign', 'finalise']) {
      expect(metrics).toMatch(new RegExp(`claims_observed_writes_total\\{kind="${kind}"\\} [1-9]`));
    }
    expect(metrics).toMatch(/claims_reconciles_total\{outcome="observed"\} [1-9]/);
  });

  it('observe mode set org-wide in the org’s .github repository applies to the repository', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: (fake) => {
        fake.addRepo('acme/.github');
        fake.setFile('acme/.github', '.github/claims.yml', 'mode: observe\n');
      },
    });
    const { fake } = harness;
    const n = raceOn(fake);
    await harness.settle();

    expect(appWrites(fake)).toEqual([]);
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [] });
    expect(await scrape(harness)).toMatch(/claims_observed_writes_total\{kind="finalise"\} [1-9]/);
  });

  it('a disabled repository costs no read beyond its config and gets no write', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: (fake) => fake.setFile(REPO, '.github/claims.yml', 'enabled: false\n'),
    });
    const { fake } = harness;
    const n = raceOn(fake);
    await harness.settle();

    expect(appWrites(fake)).toEqual([]);
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [] });
    // The config is all it reads (cached since the start-up resync): no thread, no comments.
    expect(calls(fake.requests).filter((c) => c.includes('/repos/acme/widgets/issues'))).toEqual(
      [],
    );
    expect(await scrape(harness)).toMatch(/claims_reconciles_total\{outcome="disabled"\} [1-9]/);
  });

  it('the same race in enforce mode is settled, so the tests above can fail', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: (fake) => fake.setFile(REPO, '.github/claims.yml', 'mode: enforce\n'),
    });
    const { fake } = harness;
    const n = raceOn(fake);
    await harness.settle();

    expect(fake.issue(REPO, n)).toMatchObject({
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
  });
});
