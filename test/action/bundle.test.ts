/**
 * The committed bundle is what the runner runs (action.yml `main`): run it, not the source,
 * once, on a claim that needs enforcing. `.ci/run` checks that it matches a fresh build.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimComment } from '../e2e/e2e-helpers.js';
import {
  ACTION_BUNDLE,
  type ActionHarness,
  REPO,
  ROOT,
  runStep,
  startActionHarness,
} from './action-harness.js';

let harness: ActionHarness;
beforeEach(async () => {
  harness = await startActionHarness();
});
afterEach(async () => {
  await harness.close();
});

describe('the committed Action bundle', () => {
  it('action.yml runs the bundle on node24, the current LTS', () => {
    const action = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    expect(action).toMatch(/^runs:\n {2}using: node24\n {2}main: dist-action\/index\.mjs\n/m);
    expect(ACTION_BUNDLE).toBe(join(ROOT, 'dist-action/index.mjs'));
    // The inputs the program reads as INPUT_GITHUB-TOKEN and INPUT_STALE-AFTER.
    expect(action).toMatch(
      /^ {2}github-token:\n(?: {4}.*\n)+ {4}default: \$\{\{ github\.token \}\}$/m,
    );
    expect(action).toMatch(/^ {2}stale-after:\n(?: {4}.*\n)+ {4}default: 6h$/m);
  });

  it('the bundle enforces a claim from an issue_comment event, with no node_modules', async () => {
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const payload = harness.payloadOf(() =>
      fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') }),
    );

    // A copy outside the repository: an import left out of the bundle cannot be found there.
    const dir = mkdtempSync(join(tmpdir(), 'claim-warden-bundle-'));
    const program = join(dir, 'index.mjs');
    copyFileSync(ACTION_BUNDLE, program);
    const run = await runStep(harness, { event: 'issue_comment', payload, program }).finally(() =>
      rmSync(dir, { recursive: true, force: true }),
    );

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(fake.issue(REPO, n)).toMatchObject({
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
  });
});
