import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/claim-warden.js');

describe('claim-warden mcp --help', () => {
  it.each(['--help', '-h'])('`claim-warden mcp %s` prints its usage and exits 0', (flag) => {
    const run = spawnSync(process.execPath, [BIN, 'mcp', flag], {
      encoding: 'utf8',
      timeout: 60_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });

    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: claim-warden mcp');
    expect(run.stderr).toBe('');
  });
});
