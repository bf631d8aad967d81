/**
 * scripts/unused-exports.ts, run as `.ci/run` runs it, on small projects written for the
 * test: an export that nothing imports fails the run and is named; once imported (by src/ or
 * by a test), the run passes.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/unused-exports.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TSCONFIG = JSON.stringify({
  compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true },
  include: ['src', 'test'],
});

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A project of `files` (path → text) beside a tsconfig.json. */
async function project(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'unused-exports-'));
  roots.push(root);
  await writeFile(join(root, 'tsconfig.json'), TSCONFIG);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

function run(root: string, ...flags: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', SCRIPT, '--root', root, ...flags],
      { cwd: REPO },
      (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
    );
  });
}

const LIB = [
  'export function used(): number {',
  '  return 1;',
  '}',
  'export function forgotten(): number {',
  '  return 2;',
  '}',
  'export interface Shape {',
  '  readonly n: number;',
  '}',
  '',
].join('\n');

describe('scripts/unused-exports.ts', () => {
  it('fails on an export of src/ that nothing imports, and names it', async () => {
    const root = await project({
      'src/lib.ts': LIB,
      'src/main.ts':
        "import { type Shape, used } from './lib.js';\nexport const s: Shape = { n: used() };\n",
      'test/main.test.ts': "import { s } from '../src/main.js';\nconsole.log(s);\n",
    });
    const { code, stdout } = await run(root);
    expect(code).toBe(1);
    expect(stdout).toContain('src/lib.ts: forgotten (value)');
    expect(stdout).not.toContain('used (value)');
    expect(stdout).toContain('1 of 4 exports of src/ imported by nothing (1 of 3 values)');
  }, 180_000);

  it('passes once every export is imported, a test counting as a use unless --src-only', async () => {
    const root = await project({
      'src/lib.ts': LIB,
      'src/main.ts':
        "import { type Shape, used } from './lib.js';\nexport const s: Shape = { n: used() };\n",
      'test/main.test.ts':
        "import { forgotten } from '../src/lib.js';\nimport { s } from '../src/main.js';\nconsole.log(s, forgotten());\n",
    });
    const all = await run(root);
    expect(all.stdout).toContain('0 of 4 exports of src/ imported by nothing');
    expect(all.code).toBe(0);
    const srcOnly = await run(root, '--src-only');
    expect(srcOnly.code).toBe(1);
    expect(srcOnly.stdout).toContain('src/lib.ts: forgotten (value)');
    expect(srcOnly.stdout).toContain('src/main.ts: s (value)');
  }, 180_000);
});
