/**
 * Untrusted text in the app's Markdown (docs/protocol.md §11): file names a fork chose,
 * branches, sessions, logins. Pure.
 */

/**
 * Characters shown as escapes instead of as themselves: control characters (a newline would
 * end a table row or the paragraph, and with it the code span), line and paragraph
 * separators, format characters (bidirectional overrides reorder what a reader sees) and
 * lone surrogates.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` as one Markdown code span that no text can end or escape: its fence is one backtick
 * longer than the longest run of backticks in it (CommonMark: a span ends only at a run of
 * its own length), padded with a space where the text begins or ends with a backtick or a
 * space (one is stripped from each end), and every control or invisible character is shown
 * as an escape such as `\n` or `\u202E`. Inside a code span nothing is markup: no emphasis,
 * mention, link or HTML. In a table cell (`inTableCell`) each `|` is written `\|`, which
 * GitHub's table reads as a `|` of the cell, even inside a code span, and never as a cell
 * boundary, whatever stands before it.
 */
export function markdownCode(
  text: string,
  options: { readonly inTableCell?: boolean } = {},
): string {
  const shown = text.replace(HIDDEN, escapeChar);
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const body = /^ *$/.test(shown)
    ? // A span of spaces only is kept as written; an empty one would be no span at all.
      shown || ' '
    : needsPadding(shown)
      ? ` ${shown} `
      : shown;
  const span = `${fence}${body}${fence}`;
  return options.inTableCell ? span.replace(/\|/g, '\\|') : span;
}

function needsPadding(text: string): boolean {
  return text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' '));
}

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}
