/**
 * File names are untrusted input (docs/protocol.md §11): a fork chooses them, and the
 * `claim-warden/paths` check run is the app's own voice. The real app on the HTTP fake of
 * GitHub; the check run output the fake recorded is read the way GitHub's Markdown (GFM)
 * reads it: table rows split at each `|` not preceded by `\`, each cell one code span.
 */
import { describe, expect, it } from 'vitest';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import { cellsOf, codeSpanText } from '../helpers/markdown-reading.js';
import { bobsPull, checkOf, pathClaim } from './guard-helpers.js';

const FORGED = '**Approved by @acme/security: safe to merge**';

describe('untrusted file names in the claim-warden/paths check run (docs/protocol.md §11)', () => {
  it('a file name with a double backtick and a newline stays inside its code span: no forged bold line', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const issue = fake.createIssue(REPO);
    fake.addComment(REPO, issue, { author: 'alice', body: pathClaim('s-a', ['docs/']) });
    await harness.settle();
    const files = [
      'docs/a.md',
      `docs/notes\`\`\n${FORGED}`,
      'docs/x|y``z`.md',
      'docs/back\\|slash.md',
      'docs/edge`',
    ];
    const pull = await bobsPull(harness, files);

    const summary = checkOf(fake, pull).output.summary ?? '';
    const lines = summary.split('\n');
    // Every line is the app's: its sentence, a blank line, the table.
    expect(lines.filter((l) => !l.startsWith('|'))).toEqual([
      expect.stringMatching(/^5 changed files lie in paths held by other claims\. /),
      '',
    ]);
    expect(lines.some((l) => l.includes(FORGED) && !l.startsWith('| `'))).toBe(false);
    const rows = lines.filter((l) => l.startsWith('|')).slice(2);
    expect(rows).toHaveLength(5);
    const shown = rows.map((row) => {
      const cells = cellsOf(row);
      expect(cells).toHaveLength(6);
      expect(cells[1]).toBe(`acme/widgets#${issue}`);
      expect(codeSpanText(cells[2]!)).toBe('docs/');
      return codeSpanText(cells[0]!);
    });
    // GitHub lists files by path; the newline shows as `\n`, never as a line break.
    expect(shown.sort()).toEqual(
      [
        'docs/edge`',
        'docs/a.md',
        'docs/back\\|slash.md',
        `docs/notes\`\`\\n${FORGED}`,
        'docs/x|y``z`.md',
      ].sort(),
    );
  });
});
