import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isEntry } from '../../src/app/is-entry.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = mkdtempSync(join(tmpdir(), 'claim-warden entry '));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('isEntry: is this module the program node runs?', () => {
  const real = join(scratch, 'release 1', 'main.js');
  mkdirSync(dirname(real), { recursive: true });
  writeFileSync(real, '');
  writeFileSync(join(scratch, 'other.js'), '');
  symlinkSync(join(scratch, 'release 1'), join(scratch, 'current'));
  const url = pathToFileURL(real).href;

  it.each([
    ['its own path, with a space in it', real, true],
    [
      'its path through a symlinked directory (current -> release 1)',
      join(scratch, 'current', 'main.js'),
      true,
    ],
    ['another file', join(scratch, 'other.js'), false],
    ['no argv[1] (node -e, a REPL)', undefined, false],
  ])('%s → %s', (_what, argv1, expected) => {
    expect(isEntry(url, argv1)).toBe(expected);
  });
});

describe('npm start through a symlink whose path has a space', () => {
  it('runs main(): a missing APP_ID stops it with exit 1 naming the variable, not a silent exit 0', () => {
    const link = join(scratch, 'deploy current');
    symlinkSync(ROOT, link);
    // Production: outside it, a missing APP_ID serves the setup page instead.
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: scratch,
      NODE_ENV: 'production',
    };

    // tsx by file URL: the scratch directory, the working directory here, has no node_modules.
    const tsx = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
    const run = spawnSync(process.execPath, ['--import', tsx, join(link, 'src/app/main.ts')], {
      cwd: scratch,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });

    expect(run.status).toBe(1);
    expect(run.stderr).toContain('APP_ID: is required');
  });
});
