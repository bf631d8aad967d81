import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { SPECS } from '../../src/client/cli/cli-specs.js';
import { commands } from '../../src/client/cli/commands.js';
import { mcpServer } from '../../src/client/cli/mcp-server.js';
import { type Harness, issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();

/** One step of the script both transports play: a command, its input, and who runs it. */
interface Step {
  readonly login: string;
  readonly name: (typeof commands)[number]['name'];
  readonly input: Record<string, unknown>;
}

/** A script touching every command and every kind of result. */
function script(ref: string, legacyIssue: number): Step[] {
  const alice = (name: Step['name'], input: Record<string, unknown>): Step => ({
    login: 'alice',
    name,
    input,
  });
  return [
    alice('claim', { issue: ref, session: 'unit7', lane: 'lane-a', branch: 'feat/x' }),
    {
      login: 'bob',
      name: 'claim',
      input: { issue: ref, session: 'other', lane: 'lane-b', branch: 'feat/y' },
    },
    alice('status', { issue: ref, session: 'unit7', stage: 'blocked', note: 'waiting on CI' }),
    alice('status', { issue: ref, session: 'unit7' }),
    alice('status', { issue: ref, session: 'unit7', stage: 'released' }),
    alice('check', { brief: `issue: ${ref}\nsession: unit7\n` }),
    alice('check', { brief: `issue: ${ref}\nsession: other\n` }),
    alice('check', { brief: 'issue: acme/widgets#0\n' }),
    alice('check', { brief: 'no fields at all' }),
    alice('migrate', { repo: REPO, issues: [legacyIssue] }),
    alice('release', { issue: ref, session: 'unit7', outcome: 'landed' }),
    alice('release', { issue: ref, session: 'unit7', outcome: 'landed' }),
    alice('claim', { issue: 'widgets#7', session: 'unit7', lane: 'lane-a', branch: 'feat/x' }),
  ];
}

/** The CLI argv of a step, as an agent would type it. */
function argv(step: Step): { args: string[]; stdin?: string } {
  const { input } = step;
  const flags = (names: string[]) =>
    names.flatMap((name) => (input[name] === undefined ? [] : [`--${name}`, String(input[name])]));
  switch (step.name) {
    case 'check':
      return { args: ['check', '--json'], stdin: String(input.brief) };
    case 'migrate':
      return {
        args: [
          'migrate',
          '--json',
          '--repo',
          String(input.repo),
          ...(input.issues as number[]).flatMap((n) => ['--issue', String(n)]),
        ],
      };
    default:
      return {
        args: [
          step.name,
          String(input.issue),
          '--json',
          ...flags(['session', 'lane', 'branch', 'stage', 'note', 'outcome']),
        ],
      };
  }
}

/** Makes the results of two runs comparable: times and ports differ, nothing else may. */
function normalise(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<time>')
      .replace(/127\.0\.0\.1:\d+/g, '<host>'),
  );
}

async function seed(h: Harness): Promise<{ ref: string; legacy: number }> {
  const ref = h.issue();
  const legacyRef = h.issue();
  h.seedClaim(legacyRef, { author: 'alice', session: 'legacy', plain: true });
  return { ref, legacy: issueNumber(legacyRef) };
}

describe('the CLI and the MCP tools run the same command objects', () => {
  it('every command is a tool, with the same input schema', async () => {
    const h = await world();
    const client = await connect(h, 'alice');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(commands.map((c) => c.tool).sort());
    for (const command of commands) {
      const tool = tools.find((t) => t.name === command.tool)!;
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(
        Object.keys(command.input).sort(),
      );
    }
    await client.close();
  });

  it('a script of claims, updates, gates, migration and releases gives the same results both ways', async () => {
    const viaCli = await world();
    const cliSeed = await seed(viaCli);
    const cliResults: unknown[] = [];
    for (const step of script(cliSeed.ref, cliSeed.legacy)) {
      const { args, stdin } = argv(step);
      const { code, stdout } = await viaCli.cli(args, {
        login: step.login,
        ...(stdin === undefined ? {} : { stdin }),
      });
      const json = JSON.parse(stdout) as { exitCode: number };
      expect(json.exitCode).toBe(code);
      cliResults.push(json);
    }

    // The same machine, so the same identity key and tags.
    const viaMcp = await world({ sameMachineAs: viaCli });
    const mcpSeed = await seed(viaMcp);
    const clients = { alice: await connect(viaMcp, 'alice'), bob: await connect(viaMcp, 'bob') };
    const mcpResults: unknown[] = [];
    for (const step of script(mcpSeed.ref, mcpSeed.legacy)) {
      const tool = commands.find((c) => c.name === step.name)!.tool;
      const result = await clients[step.login as 'alice' | 'bob'].callTool({
        name: tool,
        arguments: step.input,
      });
      const structured = result.structuredContent as { status: string };
      expect(result.isError).toBe(structured.status !== 'ok');
      expect(JSON.parse((result.content as [{ text: string }])[0].text)).toEqual(structured);
      mcpResults.push(structured);
    }

    expect(normalise(mcpResults)).toEqual(normalise(cliResults));
    expect((cliResults as { exitCode: number }[]).map((r) => r.exitCode)).toEqual([
      0, 1, 0, 0, 2, 0, 1, 2, 0, 0, 0, 0, 2,
    ]);
    // Both worlds end in the same state too.
    expect(viaMcp.fake.issue(REPO, 1)).toMatchObject({ labels: [], assignees: [] });
    expect(normalise(viaMcp.fake.comments(REPO, 1).map((c) => c.body))).toEqual(
      normalise(viaCli.fake.comments(REPO, 1).map((c) => c.body)),
    );
    await Promise.all(Object.values(clients).map((c) => c.close()));
  });
});

describe('the CLI', () => {
  it('prints text by default: the message on stdout when ok, on stderr otherwise', async () => {
    const h = await world();
    const ref = h.issue();
    const ok = await h.cli([
      'claim',
      ref,
      '--session',
      'unit7',
      '--lane',
      'l',
      '--branch',
      'feat/x',
    ]);
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toMatch(/^claimed acme\/widgets#1: comment \d+ by @alice/);
    const held = await h.cli(
      ['claim', ref, '--session', 'other', '--lane', 'l', '--branch', 'feat/y'],
      { login: 'bob' },
    );
    expect(held).toMatchObject({ code: 1, stdout: '' });
    expect(held.stderr).toContain('is held by another session');
  });

  it.each([
    [['claim', 'acme/widgets#1', '--session', 's', '--lane', 'l'], 'missing --branch'],
    [['claim', '--session', 's', '--lane', 'l', '--branch', 'b'], 'takes one issue reference'],
    [
      ['claim', 'acme/widgets#1', 'extra', '--session', 's', '--lane', 'l', '--branch', 'b'],
      'takes one issue reference',
    ],
    [['status', 'acme/widgets#1', '--session', 's', '--bogus'], 'unknown option --bogus\n'],
    [
      ['status', 'acme/widgets#1', '--session', 's', '--stag', 'x'],
      'unknown option --stag (did you mean --stage?)',
    ],
    [['status', 'acme/widgets#1', '--session'], '--session needs a value'],
    [['list', '--json=yes'], '--json takes no value'],
    [['migrate', '--repo', 'acme/widgets', '--issue', '07'], 'is not an issue number'],
    [['frobnicate'], 'unknown command'],
  ])('%j is a usage error (exit 2): %s', async (args, message) => {
    const h = await world();
    const { code, stderr } = await h.cli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('--help lists every command and the exit codes', async () => {
    const h = await world();
    const { code, stdout } = await h.cli(['--help']);
    expect(code).toBe(0);
    // Every command's usage line: `release --all` is the release of everything a session holds.
    for (const spec of SPECS) expect(stdout).toContain(`claim-warden ${spec.usage}`);
    expect(SPECS.map((spec) => spec.command)).toEqual(commands);
    expect(stdout).toMatch(/3 {2}unverifiable/);
  });
});

async function connect(h: Harness, login: string): Promise<Client> {
  const server = mcpServer({ runtime: h.runtime(login), version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'cli-mcp-test', version: '1' });
  await client.connect(clientSide);
  return client;
}
