import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The shape of src/ the team keeps: small files, and rooms that depend on each other in
// one direction only, so a reader can take the tree bottom up. Every import counts, type-only
// imports and re-exports included: a type cycle still ties two files' meanings together.

const root = resolve(import.meta.dirname, '..');
const MAX_LINES = 400;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Each file of src/ and the files of src/ it imports, by any kind of import. */
function importGraph(files: readonly string[]): Map<string, Set<string>> {
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = relative(root, resolve(root, dirname(file), fileName)).replace(/\.js$/, '.ts');
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of more than one node (Tarjan), each sorted. */
function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function folderGraph(files: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = dirname(file);
    const out = folders.get(from) ?? new Set<string>();
    folders.set(from, out);
    for (const target of targets) if (dirname(target) !== from) out.add(dirname(target));
  }
  return folders;
}

describe('the shape of src/', () => {
  const files = sourceFiles('src');
  const graph = importGraph(files);

  it('has no file over 400 lines', () => {
    const long = files.flatMap((file) => {
      const lines = lineCount(readFileSync(join(root, file), 'utf8'));
      return lines > MAX_LINES ? [`${file} (${lines} lines)`] : [];
    });
    expect(long).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(cycles(graph).map((cycle) => cycle.join(' <-> '))).toEqual([]);
  });

  it('has no import cycle between folders', () => {
    expect(cycles(folderGraph(graph)).map((cycle) => cycle.join(' <-> '))).toEqual([]);
  });

  it('runs one reconcile from one file of at most 100 lines, the one the queue and the Action call', () => {
    expect(
      lineCount(readFileSync(join(root, 'src/reconcile/reconcile.ts'), 'utf8')),
    ).toBeLessThanOrEqual(100);
    // Which files import the reconcile room's entry: the doors that run a reconcile.
    const callers = files.filter((file) => graph.get(file)?.has('src/reconcile/reconcile.ts'));
    expect(callers.sort()).toEqual(['src/action/run-action.ts', 'src/app/queue-jobs.ts']);
  });

  it('sees a cycle through a type-only import', () => {
    const found = cycles(
      new Map([
        ['src/a/x.ts', new Set(['src/b/y.ts'])],
        ['src/b/y.ts', new Set(['src/a/x.ts'])],
      ]),
    );
    expect(found).toEqual([['src/a/x.ts', 'src/b/y.ts']]);
    const { importedFiles } = ts.preProcessFile("import type { Y } from '../b/y.js';", true, true);
    expect(importedFiles.map((f) => f.fileName)).toEqual(['../b/y.js']);
  });
});
