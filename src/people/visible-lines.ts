/**
 * The lines of a comment a reader sees as prose (docs/protocol.md §16: commands are never read
 * inside code, quotes, preformatted HTML or HTML comments). Pure.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const QUOTE = /^ {0,3}>/;
// A quote line with nothing after its markers: a blank line inside the quote, which ends
// its paragraph, so no lazy continuation line follows it.
const EMPTY_QUOTE = /^(?: {0,3}>)+\s*$/;
const BLANK = /^\s*$/;
const INDENTED = /^(?: {4}|\t)/;

/**
 * Every line outside fenced code (``` or ~~~, closed by a fence of the same character at least
 * as long, or open to the end), indented code, block quotes with their lazy continuation lines,
 * `<pre>` (and the other raw-text HTML elements) and `<!-- -->` comments. A line that such HTML
 * touches is dropped whole: a command must stand on a line of its own.
 */
export function visibleLines(body: string): string[] {
  const lines = withoutHiddenHtml(body.replace(/\r\n?/g, '\n')).split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  // The previous line was text of a quote's paragraph: GitHub renders a following line that
  // is not blank as part of that quote (CommonMark's lazy continuation), `>` or not.
  let inQuote = false;
  for (const line of lines) {
    const opening = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (opening !== undefined && closes(fence, opening, line)) fence = null;
      continue;
    }
    if (QUOTE.test(line)) {
      inQuote = !EMPTY_QUOTE.test(line);
      continue;
    }
    if (BLANK.test(line)) inQuote = false;
    if (inQuote) continue;
    if (opening !== undefined) {
      fence = opening;
      continue;
    }
    if (line.includes(HIDDEN) || INDENTED.test(line)) continue;
    out.push(line);
  }
  return out;
}

// Stands where an HTML comment was, so that its lines are dropped.
const HIDDEN = '\u0000';

// What GitHub shows as something other than prose: HTML comments, and the elements whose
// content it renders preformatted or as raw text. Either runs to its end, or to the body's
// end when left open.
const HIDDEN_HTML =
  /<!--[\s\S]*?(?:-->|$)|<(pre|code|textarea|script|style)(?=[\s>/]|$)[\s\S]*?(?:<\/\1\s*>|$)/gi;

/** Each hidden piece of HTML made a run of hidden lines. */
function withoutHiddenHtml(text: string): string {
  return text.replace(HIDDEN_HTML, (hidden) => hidden.replace(/[^\n]+/g, HIDDEN));
}

/** A fence closes with the same character, at least as long, and nothing after it but spaces. */
function closes(fence: string, opening: string, line: string): boolean {
  return (
    opening[0] === fence[0] && opening.length >= fence.length && /^ {0,3}(`+|~+)\s*$/.test(line)
  );
}
