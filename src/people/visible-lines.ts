/**
 * The lines of a comment a reader sees as prose (docs/protocol.md §16: commands are never read
 * inside code, quotes or HTML comments). Pure.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const QUOTE = /^ {0,3}>/;
const INDENTED = /^(?: {4}|\t)/;

/**
 * Every line outside fenced code (``` or ~~~, closed by a fence of the same character at least
 * as long, or open to the end), indented code, block quotes and `<!-- -->` comments. A line
 * that an HTML comment touches is dropped whole: a command must stand on a line of its own.
 */
export function visibleLines(body: string): string[] {
  const lines = withoutHtmlComments(body.replace(/\r\n?/g, '\n')).split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const opening = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (opening !== undefined && closes(fence, opening, line)) fence = null;
      continue;
    }
    if (opening !== undefined) {
      fence = opening;
      continue;
    }
    if (line.includes(HIDDEN) || QUOTE.test(line) || INDENTED.test(line)) continue;
    out.push(line);
  }
  return out;
}

// Stands where an HTML comment was, so that its lines are dropped.
const HIDDEN = '\u0000';

/** Each `<!-- … -->` (an unclosed one runs to the end) made a run of hidden lines. */
function withoutHtmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => comment.replace(/[^\n]+/g, HIDDEN));
}

/** A fence closes with the same character, at least as long, and nothing after it but spaces. */
function closes(fence: string, opening: string, line: string): boolean {
  return (
    opening[0] === fence[0] && opening.length >= fence.length && /^ {0,3}(`+|~+)\s*$/.test(line)
  );
}
