/**
 * The agent client installs on its own, outside a clone: `npm pack` builds it (prepack) into
 * a tarball whose `claim-warden` bin runs built JavaScript, and `npm install -g` of that
 * tarball gives a working command. Packs and installs into a temporary directory.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'claim-warden-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed client', () => {
  it('npm pack, npm install -g of the tarball, and claim-warden --help runs without tsx', async () => {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
    const files = packed.files.map((f) => f.path);
    expect(files).toContain('bin/claim-warden.js');
    expect(files).toContain('dist/src/client/cli/cli.js');
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);

    const prefix = join(dir, 'prefix');
    await run(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        join(dir, packed.filename),
      ],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
    );
    // Whatever tsx the dependencies bring, the command must not need it.
    const installed = join(prefix, 'lib/node_modules/claim-warden');
    expect(existsSync(join(installed, 'dist/src/client/cli/cli.js'))).toBe(true);
    rmSync(join(installed, 'node_modules/tsx'), { recursive: true, force: true });

    const help = await run(join(prefix, 'bin/claim-warden'), ['--help'], { cwd: dir });
    expect(help.stdout).toContain('Usage:');
    expect(help.stdout).toContain('claim-warden mcp');
  }, 150_000);
});
