/**
 * The claim-warden program in API mode, run as a process: the CLI with CLAIM_WARDEN_URL
 * naming the real app, and the MCP server over stdio with the queue and path tools.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, issueNumber, REPO } from './harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROGRAM = ['--import', 'tsx', 'src/client/cli/cli.ts'];

let h: Harness;
let env: Record<string, string>;
beforeAll(async () => {
  h = await harness({ app: true });
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_TOKEN: h.fake.tokenFor('alice'),
    GITHUB_API_URL: h.fake.apiUrl,
    CLAIM_WARDEN_CONFIG_DIR: h.configDir,
    CLAIM_WARDEN_URL: h.app!.appUrl,
  };
});
afterAll(async () => {
  await h.close();
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
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
    child.stdin.end('');
  });
}

describe('the claim-warden program in API mode', () => {
  it('claims through the app, is refused by it, and lists its queue, with the documented exit codes', async () => {
    const ref = h.issue({ title: 'Process work' });
    h.seedClaim(h.issue(), { author: 'bob', session: 'other' });
    const claimed = await run([
      'claim',
      ref,
      '--session',
      'unit7',
      '--lane',
      'l',
      '--branch',
      'feat/x',
    ]);
    expect(claimed.code, claimed.stderr).toBe(0);
    expect(claimed.stdout).toMatch(/^claimed acme\/widgets#\d+: comment \d+ by @alice/);
    // The claim went through the app: its reconcile put the label on with the app's token.
    const labels = `/repos/${REPO}/issues/${issueNumber(ref)}/labels`;
    const labelWrites = h.fake.requests.filter((r) => r.method === 'POST' && r.path === labels);
    expect(labelWrites.map((r) => r.actor)).not.toContain('alice');
    expect(labelWrites.length).toBeGreaterThan(0);

    const again = await run([
      'claim',
      ref,
      '--session',
      'unit9',
      '--lane',
      'l',
      '--branch',
      'feat/y',
      '--json',
    ]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'refused', reason: 'held' });

    await h.app!.settle();
    const listed = await run(['list', '--claimed-by', 'me', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      JSON.parse(listed.stdout).items.map((i: { issue: { number: number } }) => i.issue.number),
    ).toEqual([issueNumber(ref)]);
  });

  it('serves the queue and the path tools as MCP tools over stdio, on the same code as the CLI', async () => {
    const ref = h.issue({ title: 'MCP work' });
    await h.app!.settle();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...PROGRAM, 'mcp'],
      cwd: ROOT,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'api-process-test', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['issues_list', 'paths_check']),
    );
    expect(tools.find((t) => t.name === 'issues_list')?.annotations?.readOnlyHint).toBe(true);
    expect(
      Object.keys(tools.find((t) => t.name === 'issue_claim')!.inputSchema.properties ?? {}),
    ).toContain('paths');

    const listed = await client.callTool({
      name: 'issues_list',
      arguments: { claimable: true, repo: REPO },
    });
    expect(listed.isError).toBe(false);
    const structured = listed.structuredContent as { items: { issue: { number: number } }[] };
    expect(structured.items.map((i) => i.issue.number)).toContain(issueNumber(ref));
    const cli = await run(['list', '--claimable', '--repo', REPO, '--json']);
    expect(JSON.parse(cli.stdout)).toEqual(structured);

    const badPaths = await client.callTool({
      name: 'issue_claim',
      arguments: { issue: ref, session: 'unit8', lane: 'l', branch: 'feat/z', paths: ['../x'] },
    });
    expect(badPaths.isError).toBe(true);
    expect(badPaths.structuredContent).toMatchObject({ status: 'usage', exitCode: 2 });
    expect(h.fake.comments(REPO, issueNumber(ref))).toEqual([]);

    const check = await client.callTool({
      name: 'paths_check',
      arguments: { repo: REPO, paths: ['a/../b'] },
    });
    expect(check.structuredContent).toMatchObject({ status: 'usage', exitCode: 2 });
    const claimed = await client.callTool({
      name: 'issue_claim',
      arguments: { issue: ref, session: 'unit8', lane: 'l', branch: 'feat/z', paths: ['mcp/'] },
    });
    expect(claimed.structuredContent).toMatchObject({
      status: 'ok',
      action: 'claimed',
      claim: { paths: ['mcp/'] },
    });
    const held = await client.callTool({
      name: 'paths_check',
      arguments: { repo: REPO, paths: ['mcp/x.ts', 'other.md'] },
    });
    expect(held.isError).toBe(false);
    expect(held.structuredContent).toMatchObject({
      status: 'ok',
      paths: [
        { path: 'mcp/x.ts', available: false, heldPath: 'mcp/', isSelf: true },
        { path: 'other.md', available: true },
      ],
    });
    const viaCli = await run(['paths', 'check', 'mcp/x.ts,other.md', '--repo', REPO, '--json']);
    expect(JSON.parse(viaCli.stdout)).toEqual(held.structuredContent);
    await client.close();
  });
});
