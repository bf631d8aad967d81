/**
 * The guard matches changed files by the path rules of docs/protocol.md §10: an entry covers
 * itself and everything under it (its trailing `/` or none), names compare after NFC. The
 * real app on the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import { bobsPull, checkOf, pathClaim } from './guard-helpers.js';

describe.concurrent('the guard follows the path rules (docs/protocol.md §10, §11)', () => {
  it.for([
    [
      'a directory claimed without its /',
      ['docs'],
      ['docs/guide.md', 'docsx/a.md'],
      'docs/guide.md',
    ],
    [
      'a name claimed in NFC, changed in NFD',
      ['lib/caf%C3%A9.md'],
      ['lib/cafe\u0301.md'],
      'lib/cafe\u0301.md',
    ],
    [
      'a name claimed in NFD, changed in NFC',
      ['lib/cafe%CC%81/'],
      ['lib/caf\u00e9/a.md'],
      'lib/caf\u00e9/a.md',
    ],
  ] as const)(
    '%s: the changed file fails the check',
    async ([, held, files, flagged], { onTestFinished }) => {
      const harness = await harnessFor(onTestFinished);
      const { fake } = harness;
      const issue = fake.createIssue(REPO);
      fake.addComment(REPO, issue, { author: 'alice', body: pathClaim('s-a', held) });
      await harness.settle();
      const pull = await bobsPull(harness, files);
      const run = checkOf(fake, pull);
      expect(run.conclusion).toBe('failure');
      expect(run.output.title).toBe('1 changed file lies in paths held by other claims');
      expect(run.output.summary).toContain(`| \`${flagged}\` | acme/widgets#${issue} |`);
    },
  );
});
