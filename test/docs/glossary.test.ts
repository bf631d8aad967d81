/**
 * docs/architecture.md's glossary: each word names one thing, and the files it points at are
 * the ones in src/ (a rename that forgets the glossary, or the glossary a file, fails here).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const glossary = doc.slice(
  doc.indexOf('## Glossary'),
  doc.indexOf('\n## ', doc.indexOf('## Glossary') + 1),
);
const rows = [...glossary.matchAll(/^\| \*\*([^*]+)\*\* \| [^|]+ \| ([^|]+) \|$/gm)].map((m) => ({
  word: m[1] ?? '',
  where: [...(m[2] ?? '').matchAll(/`([^`]+)`/g)].map((w) => w[1] ?? ''),
}));

describe('the glossary', () => {
  it('defines each word once', () => {
    const words = rows.map((row) => row.word.toLowerCase());
    expect(words.length).toBeGreaterThan(15);
    expect(new Set(words).size).toBe(words.length);
  });

  it('points only at files and rooms of src/ that exist', () => {
    const missing = rows.flatMap((row) =>
      row.where.filter((w) => !existsSync(join(ROOT, 'src', w))),
    );
    expect(missing).toEqual([]);
  });

  it.each([
    'app/webhook.ts',
    'app/reconcile-handler.ts',
    'rollout',
    'paths',
    'people-facts',
    'api/paths',
    'people/decide-issue.ts',
    'claims/decide-claim.ts',
  ])('src/%s, a name that meant two things, is gone', (path) => {
    expect(existsSync(join(ROOT, 'src', path))).toBe(false);
  });
});
