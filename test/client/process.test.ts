import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, issueNumber, REPO } from './harness.js';

// The real program, as the bin runs it, with tsx standing in for the build.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROGRAM = ['--import', 'tsx', 'src/client/cli/cli.ts'];

let h: Harness;
let env: Record<string, string>;
beforeAll(async () => {
  h = await harness();
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_TOKEN: h.fake.tokenFor('alice'),
    GITHUB_API_URL: h.fake.apiUrl,
    CLAIM_WARDEN_CONFIG_DIR: h.configDir,
  };
});
afterAll(async () => {
  await h.close();
});

function run(
  args: string[],
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...PROGRAM, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('the claim-warden program', () => {
  it('exits with the documented codes', async () => {
    const ref = h.issue();
    h.seedClaim(ref, { author: 'bob', session: 'other' });
    const [held, malformed] = await Promise.all([
      run(['claim', ref, '--session', 'unit7', '--lane', 'l', '--branch', 'feat/x', '--json']),
      run(['check'], 'issue: acme/widgets#0\n'),
    ]);
    expect(held.code, held.stderr).toBe(1);
    expect(JSON.parse(held.stdout)).toMatchObject({
      status: 'refused',
      exitCode: 1,
      reason: 'held',
    });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('is not an issue reference');
  });

  it('serves the same operations as MCP tools over stdio', async () => {
    const ref = h.issue();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...PROGRAM, 'mcp'],
      cwd: ROOT,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'process-test', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'claims_migrate',
      'dispatch_check',
      'issue_claim',
      'issue_release',
      'issue_status',
      'issues_list',
      'paths_check',
      'release_all_claims',
    ]);
    const result = await client.callTool({
      name: 'issue_claim',
      arguments: { issue: ref, session: 'unit8', lane: 'l', branch: 'feat/y' },
    });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      status: 'ok',
      exitCode: 0,
      action: 'claimed',
    });
    expect(h.fake.issue(REPO, issueNumber(ref)).labels).toEqual(['status:in-progress']);
    await client.close();
  });
});
