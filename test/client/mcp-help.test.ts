import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The real program, with tsx standing in for the build (test/packaging runs the built one).
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROGRAM = ['--import', 'tsx', 'src/client/cli/cli.ts'];

describe('claim-warden mcp --help', () => {
  it.each(['--help', '-h'])('`claim-warden mcp %s` prints its usage and exits 0', (flag) => {
    const run = spawnSync(process.execPath, [...PROGRAM, 'mcp', flag], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });

    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: claim-warden mcp');
    expect(run.stderr).toBe('');
  });
});
