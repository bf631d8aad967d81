import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownCode } from '../../src/claims/markdown-code.js';
import { cellsOf, codeSpanText } from '../helpers/markdown-reading.js';

/*
 * Untrusted text in the app's Markdown (docs/protocol.md §11) is one code span that nothing
 * in the text can end: read back as GitHub reads it, it shows the text and nothing else.
 */

const FORGED = '**Approved by @acme/security: safe to merge**';

/** What a table row with `text` in its first cell shows there. */
function shownInCell(text: string): string {
  const cells = cellsOf(`| ${markdownCode(text, { inTableCell: true })} | next |`);
  expect(cells).toHaveLength(2);
  expect(cells[1]).toBe('next');
  return codeSpanText(cells[0]!);
}

/** Text of visible characters only, backticks, pipes, backslashes and spaces frequent. */
const visibleText = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('`', '|', '\\', ' ', '*', '_', '<', '@', '[', ']') },
    { weight: 2, arbitrary: fc.constantFrom('a', 'Z', '0', '/', '.', 'é', '日') },
  ),
  maxLength: 24,
});
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

describe('markdownCode', () => {
  it.each([
    ['a plain name', 'src/a.ts', '`src/a.ts`'],
    ['a backtick', 'a`b', '``a`b``'],
    ['a double backtick', 'a``b', '```a``b```'],
    ['a leading backtick', '`a', '`` `a ``'],
    ['spaces at both ends', ' a ', '`  a  `'],
    ['a newline, shown as \\n', `a\`\`\n${FORGED}`, `\`\`\`a\`\`\\n${FORGED}\`\`\``],
    ['a right-to-left override', 'a\u202Eb', '`a\\u202Eb`'],
    ['an escape character', 'a\u001bb', '`a\\u001Bb`'],
    ['a line separator', 'a\u2028b', '`a\\u2028b`'],
    ['nothing', '', '` `'],
  ])('%s', (_, text, rendered) => {
    expect(markdownCode(text)).toBe(rendered);
  });

  it('a pipe is escaped in a table cell only', () => {
    expect(markdownCode('a|b', { inTableCell: true })).toBe('`a\\|b`');
    expect(markdownCode('a|b')).toBe('`a|b`');
    expect(shownInCell('a\\|b')).toBe('a\\|b');
  });

  it('in a table cell, visible text reads back as itself, in one cell', () => {
    fc.assert(
      fc.property(
        visibleText.filter((t) => t.trim() !== ''),
        (text) => {
          expect(shownInCell(text)).toBe(text);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('in running text, visible text reads back as itself', () => {
    fc.assert(
      fc.property(
        visibleText.filter((t) => t.trim() !== ''),
        (text) => {
          expect(codeSpanText(markdownCode(text))).toBe(text);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('any text at all stays one span on one line, nothing hidden', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const span = markdownCode(text, { inTableCell: true });
        expect(HIDDEN.test(span)).toBe(false);
        expect(span).not.toMatch(/[\n\r]/);
        expect(() => shownInCell(text)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
