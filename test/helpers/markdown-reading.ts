/**
 * Reading Markdown the way GitHub (GFM, cmark-gfm) reads the few shapes the app writes, to
 * tell from outside whether untrusted text stayed inert: table rows split into cells, and a
 * cell that must be exactly one code span.
 */

/** The cells of a GFM table row: split at `|` not preceded by `\`, then `\|` read as `|`. */
export function cellsOf(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '|' && row[i - 1] !== '\\') {
      cells.push(cell);
      cell = '';
    } else cell += row[i];
  }
  cells.push(cell);
  // The leading and trailing pipes open and close the row.
  return cells.slice(1, -1).map((c) => c.replace(/\\\|/g, '|').trim());
}

/**
 * The text of a cell that is exactly one code span (CommonMark §6.1): a backtick fence, the
 * text, the same fence, no run of that length inside; one space stripped from each end when
 * both ends have one. Throws when the cell is anything else: then Markdown reads it.
 */
export function codeSpanText(cell: string): string {
  const fence = /^`+/.exec(cell)?.[0];
  if (fence === undefined || !cell.endsWith(fence) || cell.length < 2 * fence.length + 1) {
    throw new Error(`not one code span: ${JSON.stringify(cell)}`);
  }
  const inner = cell.slice(fence.length, cell.length - fence.length);
  const runs = inner.match(/`+/g) ?? [];
  if (runs.some((run) => run.length === fence.length) || inner.endsWith('`')) {
    throw new Error(`the span ends early: ${JSON.stringify(cell)}`);
  }
  const padded = inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== '';
  return padded ? inner.slice(1, -1) : inner;
}
