/**
 * The CLI's rough edges: a bad flag value gets the usage line, help texts
 * name the flags the CLI has, `mcp --help` lists its tools and environment, and the help
 * says where the installed copy keeps docs/agents.md.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/client/cli/commands.js';
import { type Harness, harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.close();
});

describe('the claim-warden command line', () => {
  it('release --outcome done names the outcomes and prints the usage line', async () => {
    const run = await h.cli(['release', 'acme/widgets#1', '--session', 's', '--outcome', 'done']);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--outcome must be landed, abandoned or handed-over, not "done"');
    expect(run.stderr).toContain('Usage: claim-warden release <owner>/<repo>#<n>');
    expect(run.stderr).not.toMatch(/Invalid option|invalid input/);
  });

  it('migrate --help names the --apply flag', async () => {
    const run = await h.cli(['migrate', '--help']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--apply');
    expect(run.stdout).not.toContain('apply is true');
  });

  it('mcp --help lists every tool and the environment it reads', async () => {
    const run = await h.cli(['mcp', '--help']);

    expect(run.code).toBe(0);
    for (const command of commands) expect(run.stdout).toContain(command.tool);
    for (const variable of ['GITHUB_TOKEN', 'GITHUB_API_URL', 'CLAIM_WARDEN_URL']) {
      expect(run.stdout).toContain(variable);
    }
  });

  it('help says where this copy keeps docs/agents.md', async () => {
    const run = await h.cli(['--help']);

    const path = /^Guide for agents: (\S+agents\.md)$/m.exec(run.stdout)?.[1];
    expect(path, run.stdout).toBeDefined();
    expect(existsSync(path!)).toBe(true);
  });
});
