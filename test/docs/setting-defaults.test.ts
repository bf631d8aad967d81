/**
 * The defaults and ranges that docs/protocol.md and docs/security.md state in prose for an
 * operator's setting are the settings schema's (src/config/settings.ts): a default changed
 * in the schema fails here until the prose says it too. Every statement of the forms the
 * docs use is checked — "`NAME` (default `v`, `min` to `max`)", "(`NAME`, default `v`, …)",
 * and the limits table's "| v | `NAME` (min … max) |" — and a mention of a setting's default
 * in another form fails as unread, so none drifts unseen.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingDocs } from '../../src/config/setting-doc.js';
import { SettingsEnv } from '../../src/config/settings.js';

interface Statement {
  readonly file: string;
  readonly name: string;
  readonly stated: string;
  readonly range?: readonly [string, string];
}

/** Words the prose uses for a value, as the schema writes it. */
const SPELLED: Readonly<Record<string, string>> = { 'one second': '1000' };

/** A value as the docs write it (`6h`, 10,000, one second) as the schema does (6h, 10000). */
function normal(value: string): string {
  const bare = value.trim().replaceAll('`', '');
  return SPELLED[bare] ?? (/^\d{1,3}(,\d{3})+$/.test(bare) ? bare.replaceAll(',', '') : bare);
}

const NAME = '`([A-Z][A-Z0-9_]+)`';
/** `v`, a number with thousands commas, or words up to the clause's end. */
const VALUE = '((?:`[^`]+`)|\\d{1,3}(?:,\\d{3})+|[^,;)]+)';
const RANGE = '(?:, `([^`]+)` to `([^`]+)`)?';
const FORMS = [
  // `NAME` … (default v[, `min` to `max`])
  new RegExp(`${NAME}[^\`|(]{0,60}?\\(default ${VALUE}${RANGE}[,;)]`, 'g'),
  // (`NAME`, default v[, `min` to `max`],
  new RegExp(`\\(${NAME}, default ${VALUE}${RANGE}[,;)]`, 'g'),
];
const TABLE_ROW = /\| ([^|]+?) \| `([A-Z][A-Z0-9_]+)` \((\S+) … (\S+)\) \|/g;

function statements(file: string): { found: Statement[]; unread: string[] } {
  // One line per paragraph: a statement may wrap.
  const text = readFileSync(file, 'utf8').replace(/\n[ \t]*(?![|\n])/g, ' ');
  const found: Statement[] = [];
  const read = new Set<number>();
  for (const form of FORMS)
    for (const m of text.matchAll(form)) {
      read.add(m.index + m[0].indexOf('`'));
      found.push({
        file,
        name: m[1]!,
        stated: normal(m[2]!),
        ...(m[3] && m[4] ? { range: [normal(m[3]), normal(m[4])] as const } : {}),
      });
    }
  for (const m of text.matchAll(TABLE_ROW))
    found.push({ file, name: m[2]!, stated: normal(m[1]!), range: [m[3]!, m[4]!] });
  // A setting named, then "default" before the sentence ends, in no form read above.
  const unread = [...text.matchAll(/`([A-Z][A-Z0-9_]+)`[^.|]{0,80}?\bdefault\b/g)]
    .filter((m) => m[1]! in SettingsEnv.shape && !read.has(m.index))
    .map((m) => m[0]);
  return { found, unread };
}

function schemaDoc(name: string) {
  const schema = (SettingsEnv.shape as Record<string, unknown>)[name];
  return schema === undefined ? undefined : settingDocs.get(schema as never);
}

const FILES = ['docs/protocol.md', 'docs/security.md'];
const all = FILES.map(statements);
const found = all.flatMap((f) => f.found);

describe('the defaults the docs state for settings', () => {
  it('reads the statements of both files (a form that stops matching fails here)', () => {
    expect(found.filter((s) => s.file === 'docs/protocol.md').length).toBeGreaterThanOrEqual(10);
    expect(found.filter((s) => s.file === 'docs/security.md').length).toBeGreaterThanOrEqual(4);
  });

  it.each(found.map((s) => [`${s.file}: ${s.name} (default ${s.stated})`, s] as const))(
    '%s is the schema’s',
    (_, statement) => {
      const doc = schemaDoc(statement.name);
      expect(doc, `${statement.name} is not a setting of src/config/settings.ts`).toBeDefined();
      expect(statement.stated).toBe(doc!.default);
      if (statement.range)
        expect(`\`${statement.range[0]}\` … \`${statement.range[1]}\``).toBe(doc!.range);
    },
  );

  it('leaves no default of a setting stated in a form it does not read', () => {
    expect(all.flatMap((f) => f.unread)).toEqual([]);
  });
});
