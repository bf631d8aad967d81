/**
 * docs/protocol.md §15, the Action mode, run as the Actions runner runs it: a node process
 * with GITHUB_* variables, the payload in GITHUB_EVENT_PATH, inputs as INPUT_*, and the
 * fake of GitHub behind GITHUB_API_URL, where the workflow token writes as
 * github-actions[bot].
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { claimComment, HOUR } from '../e2e/e2e-helpers.js';
import { type ActionHarness, REPO, runStep, startActionHarness } from './action-harness.js';

const IN_PROGRESS = 'status:in-progress';
let harness: ActionHarness;

beforeEach(async () => {
  harness = await startActionHarness();
});
afterEach(async () => {
  await harness.close();
});

const ago = (ms: number) => new Date(Date.now() - ms);

/** Posts a claim of `session` by `author`, started and last updated `at`. */
function claim(n: number, author: string, session: string, at: Date): number {
  return harness.fake.addComment(REPO, n, {
    author,
    body: claimComment(session, { at }),
    createdAt: at,
    updatedAt: at,
  }).id;
}

function markerOf(id: number) {
  return parseClaimMarker(harness.fake.comment(id)?.body ?? '');
}

describe('the Action on issue events', () => {
  it('people’s claims: an assignment holds against a later agent claim, and /claim is run once', async () => {
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const assigned = harness.payloadOf(() => fake.assign(REPO, n, ['bob'], { actor: 'bob' }));
    expect((await runStep(harness, { event: 'issues', payload: assigned })).code).toBe(0);
    let late = 0;
    const marker = harness.payloadOf(() => {
      late = claim(n, 'alice', 's-late', new Date());
    });
    expect((await runStep(harness, { event: 'issue_comment', payload: marker })).code).toBe(0);
    expect(markerOf(late)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['bob'] });

    const other = fake.createIssue(REPO);
    let command = 0;
    const claimed = harness.payloadOf(() => {
      command = fake.addComment(REPO, other, { author: 'maria', body: '/claim' }).id;
    });
    for (let run = 0; run < 2; run++) {
      expect((await runStep(harness, { event: 'issue_comment', payload: claimed })).code).toBe(0);
    }
    expect(fake.issue(REPO, other).assignees).toEqual(['maria']);
    expect(fake.count('POST', `/repos/${REPO}/issues/comments/${command}/reactions`)).toBe(1);
  });

  it('an issue with a stale claim and a losing claim converges in one run', async () => {
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const stale = claim(n, 'alice', 's-1', ago(7 * HOUR));
    const holder = claim(n, 'bob', 's-2', ago(HOUR));
    let loser = 0;
    const payload = harness.payloadOf(() => {
      loser = claim(n, 'maria', 's-3', ago(HOUR / 2));
    });

    const run = await runStep(harness, { event: 'issue_comment', payload });

    expect(run.code).toBe(0);
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['bob'] });
    expect(markerOf(stale)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(markerOf(loser)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(markerOf(holder)).toMatchObject({ stage: 'claimed' });
    expect(fake.comments(REPO, n).some((c) => c.body?.includes('@alice'))).toBe(true);
    expect(new Set(fake.writes().map((w) => w.actor))).toEqual(new Set(['github-actions[bot]']));

    // Converged: the same event again reads and writes nothing.
    const writes = fake.writes().length;
    expect((await runStep(harness, { event: 'issue_comment', payload })).code).toBe(0);
    expect(fake.writes()).toHaveLength(writes);
  });

  it('an event sent by github-actions[bot] costs no call', async () => {
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const id = claim(n, 'alice', 's-1', ago(HOUR));
    const payload = harness.payloadOf(() =>
      fake.editComment(id, `${fake.comment(id)?.body}\n`, { actor: 'github-actions[bot]' }),
    );
    fake.clearRequests();

    const run = await runStep(harness, { event: 'issue_comment', payload });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('nothing to do: own write');
    expect(fake.requests).toEqual([]);
  });

  it('an unverifiable read fails the step with the reason and writes nothing', async () => {
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    claim(n, 'alice', 's-1', ago(7 * HOUR));
    const payload = harness.payloadOf(() => claim(n, 'bob', 's-2', ago(HOUR)));
    fake.inject({
      method: 'GET',
      path: `/repos/acme/widgets/issues/${n}/comments`,
      status: 403,
      times: Number.POSITIVE_INFINITY,
      body: { message: 'Resource not accessible by integration' },
    });

    const summary = join(mkdtempSync(join(tmpdir(), 'claim-warden-summary-')), 'summary.md');
    const run = await runStep(harness, {
      event: 'issue_comment',
      payload,
      env: { GITHUB_STEP_SUMMARY: summary },
    });

    expect(run.code).toBe(1);
    // The run's page shows why, too.
    expect(readFileSync(summary, 'utf8')).toContain(`- #${n} could not be verified`);
    rmSync(dirname(summary), { recursive: true, force: true });
    expect(run.stdout).toMatch(
      new RegExp(
        `::error title=claim-warden::#${n} could not be verified, so nothing was written on it: could not read the thread.*Resource not accessible by integration`,
      ),
    );
    expect(fake.writes()).toEqual([]);
  });

  it('a label that is not a status label costs the config read and nothing more', async () => {
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const payload = harness.payloadOf(() => fake.addLabels(REPO, n, ['bug'], { actor: 'alice' }));
    fake.clearRequests();

    const run = await runStep(harness, { event: 'issues', payload });

    expect(run.code).toBe(0);
    // The repository's claims.yml, then the org's .github repository (no file in either).
    expect(fake.requests.map((r) => `${r.method} ${r.path.split('/contents/')[0]}`)).toEqual([
      'GET /repos/acme/widgets',
      'GET /repos/acme/.github',
    ]);
  });

  it('observe mode in claims.yml decides, says what it would write, and writes nothing', async () => {
    const { fake } = harness;
    fake.setFile(REPO, '.github/claims.yml', 'mode: observe\n');
    const n = fake.createIssue(REPO);
    const payload = harness.payloadOf(() => claim(n, 'alice', 's-1', ago(HOUR)));

    const run = await runStep(harness, { event: 'issue_comment', payload });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('observe mode: 2 writes not sent');
    expect(fake.writes()).toEqual([]);
  });

  it('a bad input fails the step naming it, before any call', async () => {
    harness.fake.clearRequests();
    const run = await runStep(harness, {
      event: 'schedule',
      inputs: { 'stale-after': '5m' },
    });

    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error title=claim-warden::claim-warden cannot run: input stale-after: must be a duration between 10m and 720h, such as 6h',
    );
    expect(harness.fake.requests).toEqual([]);
  });
});

describe('the Action on schedule', () => {
  it('a sweep finds claims by their comments and by status labels, and enforces them all', async () => {
    const { fake } = harness;
    // Stale for an hour: its comment is older than the window, its label gives it away.
    const expired = fake.createIssue(REPO);
    const old = claim(expired, 'alice', 's-1', ago(7 * HOUR));
    fake.addLabels(REPO, expired, [IN_PROGRESS]);
    fake.assign(REPO, expired, ['alice']);
    // A fresh claim nothing has enforced yet.
    const fresh = fake.createIssue(REPO);
    claim(fresh, 'bob', 's-2', ago(HOUR));
    // A status label without any claim.
    const stray = fake.createIssue(REPO);
    fake.addLabels(REPO, stray, [IN_PROGRESS]);

    const run = await runStep(harness, {
      event: 'schedule',
      payload: { schedule: '*/15 * * * *' },
    });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('reconciled 3 issue(s)');
    expect(fake.issue(REPO, expired)).toMatchObject({ labels: [], assignees: [] });
    expect(markerOf(old)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(fake.issue(REPO, fresh)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['bob'] });
    expect(fake.issue(REPO, stray)).toMatchObject({ labels: [] });
  });

  it('a listing that fails fails the step and writes nothing', async () => {
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    claim(n, 'bob', 's-2', ago(HOUR));
    fake.inject({
      method: 'GET',
      path: '/repos/acme/widgets/issues',
      status: 403,
      times: Number.POSITIVE_INFINITY,
      body: { message: 'Resource not accessible by integration' },
    });

    const run = await runStep(harness, { event: 'workflow_dispatch', payload: {} });

    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "::error title=claim-warden::the sweep could not list the repository's claims",
    );
    expect(fake.writes()).toEqual([]);
  });

  it('enabled: false reads the config and nothing else', async () => {
    const { fake } = harness;
    fake.setFile(REPO, '.github/claims.yml', 'enabled: false\n');
    const n = fake.createIssue(REPO);
    claim(n, 'bob', 's-2', ago(HOUR));
    fake.clearRequests();

    const run = await runStep(harness, { event: 'schedule', payload: {} });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('enabled: false');
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /repos/acme/widgets/contents/.github%2Fclaims.yml',
    ]);
  });
});
