/** One part of the benchmark's report: a titled table, and the same figures for `--json`. */
export interface Section {
  /** The key of the section in the JSON report. */
  readonly id: string;
  readonly title: string;
  /** How it was measured, printed under the title. */
  readonly notes: readonly string[];
  readonly columns: readonly string[];
  readonly rows: ReadonlyArray<readonly string[]>;
  /** The figures, unformatted, for machines. */
  readonly data: unknown;
}

/** Formats a number for the table: thousands separated, at most `digits` decimals. */
export function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** Renders a section as aligned text: title, notes, header and rows. */
export function renderSection(section: Section, index: number): string {
  const widths = section.columns.map((column, i) =>
    Math.max(column.length, ...section.rows.map((row) => (row[i] ?? '').length)),
  );
  // The first column is text (left-aligned); the figures are right-aligned.
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [`${index}. ${section.title}`];
  for (const note of section.notes) out.push(`   ${note}`);
  out.push('');
  out.push(`   ${line(section.columns)}`);
  out.push(`   ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of section.rows) out.push(`   ${line(row)}`);
  return out.join('\n');
}
