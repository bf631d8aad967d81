/**
 * Lists the tools of both MCP servers with the official MCP Inspector's CLI
 * (`@modelcontextprotocol/inspector`, run with `--method tools/list --strict`) and fails on
 * any schema portability finding it reports: the remote server (the real app's `/mcp`, on the
 * HTTP fake of GitHub, with a collaborator's token) and the local one (`claim-warden mcp` on
 * stdio). The inspector runs under the Node given as NODE22 (it needs Node 22.19 or later);
 * INSPECTOR names the command that starts it (scripts/mcp-inspector.sh sets both).
 */
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { startHarness } from '../test/helpers/app-harness.js';

const node22 = process.env.NODE22 ?? process.execPath;
const inspector = (process.env.INSPECTOR ?? '').split(' ').filter((word) => word !== '');
if (inspector.length === 0) {
  console.error('INSPECTOR is not set: run scripts/mcp-inspector.sh');
  process.exit(1);
}

interface Finding {
  readonly severity: string;
  readonly schema: string;
  readonly path: string;
  readonly issue: string;
}

/** Runs the inspector's tools/list on `target` and says what is wrong, or nothing. */
async function listTools(label: string, target: readonly string[]): Promise<string[]> {
  const args = ['--cli', '--method', 'tools/list', '--format', 'json', '--strict', ...target];
  const child = spawn(inspector[0] ?? '', [...inspector.slice(1), ...args], {
    env: { ...process.env, PATH: `${dirname(node22)}:${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const killer = setTimeout(() => child.kill(), 180_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(killer);
  const problems: string[] = [];
  if (code !== 0) problems.push(`the inspector exited ${code}: ${stderr.trim()}`);
  let envelope: {
    result?: { tools?: { name: string }[] };
    schemaFindings?: { toolName: string; findings: Finding[] }[];
  } = {};
  try {
    envelope = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
  } catch {
    problems.push(`the inspector printed no JSON answer: ${stdout.trim() || stderr.trim()}`);
  }
  const tools = envelope.result?.tools ?? [];
  if (tools.length === 0) problems.push('the inspector listed no tool');
  for (const { toolName, findings } of envelope.schemaFindings ?? []) {
    for (const finding of findings) {
      const where = finding.path === '' ? finding.schema : `${finding.schema}.${finding.path}`;
      problems.push(`${finding.severity}: tool ${toolName} ${where}: ${finding.issue}`);
    }
  }
  // Without findings in the answer, a line on stderr would still say one (its wording).
  if ((envelope.schemaFindings ?? []).length === 0 && /Warning:|Schema portability/.test(stderr)) {
    problems.push(`the inspector warned: ${stderr.trim()}`);
  }
  console.log(
    `${problems.length === 0 ? 'PASS' : 'FAIL'} ${label}: ${tools.length} tools` +
      `${tools.length > 0 ? ` (${tools.map((tool) => tool.name).join(', ')})` : ''}`,
  );
  for (const problem of problems) console.log(`  ${problem}`);
  return problems;
}

const harness = await startHarness();
const problems: string[] = [];
try {
  problems.push(
    ...(await listTools('remote /mcp', [
      `${harness.appUrl}/mcp`,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${harness.fake.tokenFor('alice')}`,
    ])),
  );
} finally {
  await harness.close();
}
// The local server as docs/agents.md starts it (`claim-warden mcp`), here from the source.
// A token in the environment: without one it would ask `gh auth token` (listing needs none).
problems.push(
  ...(await listTools('stdio claim-warden mcp', [
    '-e',
    'GITHUB_TOKEN=inspector-lists-tools-only',
    '--',
    process.execPath,
    '--import',
    'tsx',
    'src/client/cli/cli.ts',
    'mcp',
  ])),
);
console.log(`mcp inspector: ${problems.length === 0 ? 'no' : problems.length} schema problems`);
process.exit(problems.length === 0 ? 0 : 1);
