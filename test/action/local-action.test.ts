/**
 * The Action follows GitHub's action templates: main.ts exports run(),
 * and importing it runs nothing, so `@github/local-action` (which imports the entrypoint and
 * calls its run()) can debug it. scripts/local-action.ts runs the real tool against the fake.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimComment } from '../e2e/e2e-helpers.js';
import { type ActionHarness, REPO, ROOT, runStep, startActionHarness } from './action-harness.js';

let harness: ActionHarness;
let dir: string;
beforeEach(async () => {
  harness = await startActionHarness();
  dir = mkdtempSync(join(tmpdir(), 'claim-warden-local-action-'));
});
afterEach(async () => {
  await harness.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A program that does what local-action does with an ESM entrypoint: import, then run(). */
function localActionLike(): string {
  // An ES module, as the Action's package.json makes main.ts (`"type": "module"`).
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const program = join(dir, 'local-action-like.ts');
  const main = pathToFileURL(join(ROOT, 'src/action/main.ts')).href;
  writeFileSync(
    program,
    [
      `const entry = await import(${JSON.stringify(main)});`,
      `process.stdout.write('imported\\n');`,
      `if (typeof entry.run !== 'function') throw new Error('Entrypoint does not export a run() function');`,
      'await entry.run();',
      '',
    ].join('\n'),
  );
  return program;
}

describe('the Action as @github/local-action runs it', () => {
  it('main.ts runs nothing on import and its run() enforces a claim', async () => {
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const payload = harness.payloadOf(() =>
      fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') }),
    );

    const run = await runStep(harness, {
      event: 'issue_comment',
      payload,
      program: localActionLike(),
    });

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // Nothing was printed (nor run) before the importer called run().
    expect(run.stdout.startsWith('imported\n')).toBe(true);
    expect(run.stdout).toContain('claim-warden: ');
    expect(fake.issue(REPO, n)).toMatchObject({
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
  });

  it("run() sets the step's exit code for a bad input instead of exiting", async () => {
    const run = await runStep(harness, {
      event: 'issue_comment',
      payload: {},
      inputs: { 'stale-after': 'soon' },
      program: localActionLike(),
    });

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^imported\n::error title=claim-warden::.*input stale-after/);
  });
});
