/**
 * The README is a newcomer's first hour: at most 300 lines, and every file or folder it
 * names exists (a link, a `src/…` path, or a bare file name somewhere in the repository).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const ROOTS = ['src/', 'docs/', 'test/', 'scripts/', 'bench/', 'sandbox/', 'packages/', '.ci/'];
const FILE = /^[\w.-]+\.(?:ts|mjs|md|yml|yaml|json|png|sh)$/;

/** Every file name below `dir`, without node_modules and .git. */
function fileNames(dir: string, into = new Set<string>()): Set<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    if (entry.isDirectory()) fileNames(join(dir, entry.name), into);
    else into.add(entry.name);
  }
  return into;
}

/** The paths the text names: relative link targets and code spans that look like paths. */
function namedPaths(text: string): { paths: string[]; names: string[] } {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] ?? '').replace(/#.*$/, ''))
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target));
  // A glob (`test/*.test.ts`) names files by a pattern, not one path.
  const spans = [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1] ?? '')
    .filter((span) => !span.includes('*'));
  const paths = [...links, ...spans.filter((span) => ROOTS.some((r) => span.startsWith(r)))];
  const names = spans.filter((span) => FILE.test(span) && !span.includes('/'));
  return { paths: [...new Set(paths)], names: [...new Set(names)] };
}

describe('the README', () => {
  it('is at most 300 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('names only files and folders that exist', () => {
    const { paths, names } = namedPaths(README);
    const everyName = fileNames(ROOT);
    const missing = [
      ...paths.filter((path) => !existsSync(join(ROOT, path.replace(/[.,:;]$/, '')))),
      ...names.filter((name) => !everyName.has(name)),
    ];
    expect(missing).toEqual([]);
  });

  it('finds a missing file it names', () => {
    const { paths, names } = namedPaths('see `src/app/events.ts`, `events.ts` and [x](docs/x.md)');
    expect(paths).toEqual(['docs/x.md', 'src/app/events.ts']);
    expect(names).toEqual(['events.ts']);
  });
});
