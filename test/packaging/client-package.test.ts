/**
 * The agent client installs on its own, outside a clone: `npm pack ./packages/client` builds
 * it (prepack) into a tarball, and `npm install -g` of that tarball, offline, gives a
 * `claim-warden` that runs on plain node from a folder with no server and no TypeScript
 * tooling in reach, against GitHub and as an MCP server. Packs and installs into a temporary
 * directory; the sizes the README gives come from the same pack and install.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, REPO } from '../client/harness.js';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'packages/client/package.json'), 'utf8')) as {
    version: string;
  }
).version;

const dir = mkdtempSync(join(tmpdir(), 'claim-warden-client-pack-'));
const prefix = join(dir, 'prefix');
const bin = join(prefix, 'bin/claim-warden');
const installed = join(prefix, 'lib/node_modules/claim-warden-client');
let packedFiles: string[];
let tarballBytes: number;
let h: Harness;
let env: Record<string, string>;

beforeAll(async () => {
  const { stdout } = await run(
    'npm',
    ['pack', './packages/client', '--json', '--pack-destination', dir],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  const [packed] = JSON.parse(stdout) as [
    { filename: string; size: number; files: { path: string }[] },
  ];
  packedFiles = packed.files.map((f) => f.path).sort();
  tarballBytes = packed.size;
  // Offline: the package has no dependencies to fetch.
  await run(
    'npm',
    ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', packed.filename],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  );
  h = await harness();
  // Only node on the PATH, and a working directory outside the checkout: nothing of the
  // repository's node_modules can be resolved.
  env = {
    PATH: dirname(process.execPath),
    HOME: dir,
    GITHUB_TOKEN: h.fake.tokenFor('alice'),
    GITHUB_API_URL: h.fake.apiUrl,
    CLAIM_WARDEN_CONFIG_DIR: h.configDir,
  };
}, 120_000);
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every package folder under the install prefix, by name. */
function installedPackages(): string[] {
  const names: string[] = [];
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const folders = entry.startsWith('@')
        ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`)
        : [entry];
      for (const name of folders) {
        names.push(name);
        visit(join(modules, name, 'node_modules'));
      }
    }
  };
  visit(join(prefix, 'lib/node_modules'));
  return names;
}

/** The bytes of every file under `path`. */
function bytesUnder(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, entry) => sum + bytesUnder(join(path, entry)), 0);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

describe('the client package', () => {
  it('packs the bundle, the guide, its README and package.json, and installs as one package', async ({
    annotate,
  }) => {
    expect(packedFiles).toEqual(['README.md', 'dist/cli.js', 'docs/agents.md', 'package.json']);
    // Nothing beside it: no Probot, BullMQ, ioredis or tsx, and no dependency at all.
    const packages = installedPackages();
    expect(packages).toEqual(['claim-warden-client']);
    // The README's figures (a figure, not a limit).
    await annotate(
      `${packages.length} package, ${mb(bytesUnder(join(prefix, 'lib')))} installed, ${mb(tarballBytes)} tarball`,
    );
  });

  it('runs on plain node: --version, and --help naming the installed guide', async () => {
    const version = await run(bin, ['--version'], { cwd: dir, env });
    expect(version.stdout.trim()).toBe(VERSION);

    const help = await run(bin, ['--help'], { cwd: dir, env });
    expect(help.stdout).toContain('Usage:');
    expect(help.stdout).toContain(`Guide for agents: ${join(installed, 'docs/agents.md')}`);
  });

  it('claims an issue on GitHub', async () => {
    const ref = h.issue();
    const { stdout } = await run(
      bin,
      ['claim', ref, '--session', 'unit7', '--lane', 'lane-a', '--branch', 'feat/x', '--json'],
      { cwd: dir, env },
    );

    expect(JSON.parse(stdout)).toMatchObject({ status: 'ok', exitCode: 0 });
    const [comment] = h.fake.comments(REPO, Number(ref.split('#')[1]));
    expect(comment?.body).toContain(`session=${h.tag('session', 'unit7')}`);
  });

  it('serves its tools over stdio', async () => {
    const transport = new StdioClientTransport({ command: bin, args: ['mcp'], cwd: dir, env });
    const client = new Client({ name: 'client-package-test', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('issue_claim');
    } finally {
      await client.close();
    }
  });
});
