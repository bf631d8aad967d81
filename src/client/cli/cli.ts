#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { OUTCOMES } from '../../claims/marker.js';
import { usageError } from '../core/client-error.js';
import type { CommandResult } from '../core/command-result.js';
import { EXIT_CODES, exitCode } from '../core/exit-codes.js';
import { resultJson } from '../core/result-json.js';
import { type ClientRuntime, defaultRuntime } from '../io/runtime.js';
import { agentsGuide } from './agents-guide.js';
import { answerParseErrors } from './answer-parse-errors.js';
import { type ClientCommand, commands } from './commands.js';
import { mcpServer } from './mcp-server.js';
import { packageVersion } from './package-version.js';
import { runCommand } from './run-command.js';

/** What the CLI reads and writes; a test passes its own. */
export interface CliIo {
  readonly runtime: ClientRuntime;
  /** The whole of stdin, or null when stdin is a terminal (nothing was piped). */
  readonly readStdin: () => Promise<string | null>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Serves MCP on stdio until the client goes away (`claim-warden mcp`). */
  readonly serveMcp: (options: {
    token?: string | undefined;
    staleAfter?: string | undefined;
  }) => Promise<void>;
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;
type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };

/** How each subcommand reads its command line: its flags, its positional, its input. */
interface CliSpec {
  readonly command: ClientCommand;
  readonly usage: string;
  readonly options: Record<string, OptionSpec>;
  readonly required: readonly string[];
  /** The positional arguments it takes, as the usage error names them ('' for none). */
  readonly positionals: { readonly count: number; readonly wanted: string };
  input(
    values: Values,
    positionals: readonly string[],
    io: CliIo,
  ): Promise<Record<string, unknown>>;
}

const REF_ARG = { count: 1, wanted: 'one issue reference <owner>/<repo>#<n>' } as const;
const NO_ARGS = { count: 0, wanted: 'no arguments' } as const;

/** `a,b,dir/` as entries; empty entries are kept, so the path rules name them. */
function pathList(text: string): string[] {
  return text.split(',');
}

const COMMON: Record<string, OptionSpec> = {
  json: { type: 'boolean' },
  token: { type: 'string' },
  'stale-after': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

/** Drops absent optional fields, so the input matches what an MCP client would send. */
function defined(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

const LINES: Readonly<Record<ClientCommand['name'], Omit<CliSpec, 'command'>>> = {
  claim: {
    usage: 'claim <owner>/<repo>#<n> --session S --lane L --branch B [--paths a,b,dir/]',
    options: {
      session: { type: 'string' },
      lane: { type: 'string' },
      branch: { type: 'string' },
      paths: { type: 'string' },
    },
    required: ['session', 'lane', 'branch'],
    positionals: REF_ARG,
    input: async (v, [ref]) =>
      defined({
        issue: ref,
        session: str(v, 'session'),
        lane: str(v, 'lane'),
        branch: str(v, 'branch'),
        paths: v.paths === undefined ? undefined : pathList(str(v, 'paths') ?? ''),
        staleAfter: str(v, 'stale-after'),
      }),
  },
  status: {
    usage: 'status <owner>/<repo>#<n> --session S [--stage G] [--note T]',
    options: {
      session: { type: 'string' },
      stage: { type: 'string' },
      note: { type: 'string' },
    },
    required: ['session'],
    positionals: REF_ARG,
    input: async (v, [ref]) =>
      defined({
        issue: ref,
        session: str(v, 'session'),
        stage: str(v, 'stage'),
        note: str(v, 'note'),
        staleAfter: str(v, 'stale-after'),
      }),
  },
  release: {
    usage:
      'release <owner>/<repo>#<n> --session S --outcome landed|abandoned|handed-over [--note T]',
    options: {
      session: { type: 'string' },
      outcome: { type: 'string' },
      note: { type: 'string' },
    },
    required: ['session', 'outcome'],
    positionals: REF_ARG,
    input: async (v, [ref]) => {
      const outcome = str(v, 'outcome');
      if (outcome !== undefined && !(OUTCOMES as readonly string[]).includes(outcome)) {
        throw usageError(
          `--outcome must be landed, abandoned or handed-over, not ${JSON.stringify(outcome)}`,
        );
      }
      return defined({
        issue: ref,
        session: str(v, 'session'),
        outcome,
        note: str(v, 'note'),
        staleAfter: str(v, 'stale-after'),
      });
    },
  },
  check: {
    usage: 'check < brief.txt',
    options: {},
    required: [],
    positionals: NO_ARGS,
    async input(v, _ref, io) {
      const brief = await io.readStdin();
      if (brief === null) throw usageError('check reads the brief on stdin; pipe it in');
      return defined({ brief, staleAfter: str(v, 'stale-after') });
    },
  },
  migrate: {
    usage: 'migrate --repo <owner>/<repo> --issue N [--issue N…] [--apply]',
    options: {
      repo: { type: 'string' },
      issue: { type: 'string', multiple: true },
      apply: { type: 'boolean' },
    },
    required: ['repo', 'issue'],
    positionals: NO_ARGS,
    input: async (v) => {
      const issues = ((v.issue as string[] | undefined) ?? []).map((text) => {
        if (!/^[1-9][0-9]{0,15}$/.test(text)) {
          throw usageError(`--issue ${JSON.stringify(text)} is not an issue number`);
        }
        return Number(text);
      });
      return defined({
        repo: str(v, 'repo'),
        issues,
        apply: v.apply === true ? true : undefined,
        staleAfter: str(v, 'stale-after'),
      });
    },
  },
  list: {
    usage:
      'list [--claimable] [--claimed-by me|LOGIN] [--assigned-to-me] [--repo o/r] [--label L] [--limit N] [--cursor C | --all]',
    options: {
      claimable: { type: 'boolean' },
      'claimed-by': { type: 'string' },
      'assigned-to-me': { type: 'boolean' },
      repo: { type: 'string' },
      label: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      all: { type: 'boolean' },
    },
    required: [],
    positionals: NO_ARGS,
    input: async (v) => {
      const limit = str(v, 'limit');
      if (limit !== undefined && !/^[1-9][0-9]{0,2}$/.test(limit)) {
        throw usageError(`--limit ${JSON.stringify(limit)} is not a whole number from 1 to 100`);
      }
      if (v.all === true && v.cursor !== undefined) {
        throw usageError('--all starts at the first page; drop --cursor, or drop --all');
      }
      return defined({
        claimable: v.claimable === true ? true : undefined,
        claimedBy: str(v, 'claimed-by'),
        assignedToMe: v['assigned-to-me'] === true ? true : undefined,
        repo: str(v, 'repo'),
        label: str(v, 'label'),
        limit: limit === undefined ? undefined : Number(limit),
        cursor: str(v, 'cursor'),
        all: v.all === true ? true : undefined,
      });
    },
  },
  paths: {
    usage: 'paths check <a,b,dir/> --repo <owner>/<repo>',
    options: { repo: { type: 'string' } },
    required: ['repo'],
    positionals: { count: 2, wanted: 'check and a comma-separated list of paths' },
    input: async (v, [verb, list]) => {
      if (verb !== 'check') {
        throw usageError(`paths has one subcommand, check, not ${JSON.stringify(verb)}`);
      }
      return { repo: str(v, 'repo'), paths: pathList(list ?? '') };
    },
  },
};

const SPECS: readonly CliSpec[] = commands.map((command) => ({ command, ...LINES[command.name] }));

function help(): string {
  const codes = Object.entries(EXIT_CODES)
    .map(([status, code]) => `  ${code}  ${status}`)
    .join('\n');
  return [
    'claim-warden: claim, update and release GitHub issues (the Praetor claim protocol)',
    '',
    'Usage:',
    ...SPECS.map((spec) => `  claim-warden ${spec.usage}`),
    '  claim-warden mcp            serve the same operations as MCP tools on stdio',
    '',
    'Options for every command:',
    '  --json               print one JSON object instead of text',
    '  --token T            GitHub token (default: GITHUB_TOKEN, then `gh auth token`)',
    '  --stale-after D      stale window when the repository sets none (10m..720h, default 6h)',
    '',
    ...ENVIRONMENT,
    '',
    'Exit codes:',
    codes,
    '',
    guideLine(),
  ].join('\n');
}

const ENVIRONMENT = [
  'Environment: GITHUB_TOKEN, GITHUB_API_URL (GitHub Enterprise: https://<host>/api/v3),',
  'XDG_CONFIG_HOME or CLAIM_WARDEN_CONFIG_DIR (identity key and private-names.txt),',
  'CLAIM_WARDEN_URL (the claims app’s base URL: claim, status and release ask it first;',
  'list and paths check need it).',
];

/** Where the guide is: this copy's docs/agents.md (an installed package ships it). */
function guideLine(): string {
  const guide = agentsGuide();
  return guide
    ? `Guide for agents: ${guide}`
    : 'Guide for agents: docs/agents.md in the claim-warden repository';
}

/** `claim-warden mcp --help`: the tools it serves and what it reads. */
function mcpHelp(): string {
  const width = Math.max(...SPECS.map((spec) => spec.command.tool.length));
  return [
    'Usage: claim-warden mcp [--token T] [--stale-after D]',
    'Serves the claim operations as MCP tools on stdio (stdout carries the protocol).',
    '',
    'Tools:',
    ...SPECS.map(
      (spec) =>
        `  ${spec.command.tool.padEnd(width)}  ${spec.command.title}${spec.command.readOnly ? ' (read-only)' : ''}`,
    ),
    '',
    'Options:',
    '  --token T            GitHub token (default: GITHUB_TOKEN, then `gh auth token`)',
    '  --stale-after D      stale window for calls that name none (10m..720h, default 6h)',
    '',
    ...ENVIRONMENT,
    '',
    guideLine(),
  ].join('\n');
}

/**
 * The `claim-warden` command line: parses argv with node's util.parseArgs, runs the command
 * object the MCP server runs too, prints the result (text by default, `--json` for
 * programs) and returns the exit code (docs/agents.md).
 */
export async function cli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout(`${help()}\n`);
    return name === undefined ? EXIT_CODES.usage : EXIT_CODES.ok;
  }
  if (name === '--version') {
    io.stdout(`${packageVersion()}\n`);
    return EXIT_CODES.ok;
  }
  if (name === 'mcp') return mcp(rest, io);
  const spec = SPECS.find((s) => s.command.name === name);
  if (!spec) {
    io.stderr(`claim-warden: unknown command ${JSON.stringify(name)}\n\n${help()}\n`);
    return EXIT_CODES.usage;
  }
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      options: { ...COMMON, ...spec.options },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return print(io, false, usage(spec, (error as Error).message));
  }
  const json = values.json === true;
  if (values.help) {
    io.stdout(`Usage: claim-warden ${spec.usage}\n\n${spec.command.description}\n`);
    return EXIT_CODES.ok;
  }
  const missing = spec.required.filter((flag) => values[flag] === undefined);
  if (missing.length > 0) {
    return print(io, json, usage(spec, `missing ${missing.map((f) => `--${f}`).join(', ')}`));
  }
  if (positionals.length !== spec.positionals.count) {
    return print(io, json, usage(spec, `${name} takes ${spec.positionals.wanted}`));
  }
  let input: Record<string, unknown>;
  try {
    input = await spec.input(values, positionals, io);
  } catch (error) {
    return print(io, json, usage(spec, (error as Error).message));
  }
  const result = await runCommand(spec.command, input, {
    runtime: io.runtime,
    token: str(values, 'token'),
  });
  // A usage problem found by the command (its input schema) gets the usage line too, for
  // people; --json keeps the message the MCP tool gives, so the two stay the same.
  const shown = !json && result.status === 'usage' ? usage(spec, result.message) : result;
  return print(io, json, shown);
}

function usage(spec: CliSpec, problem: string): CommandResult {
  return {
    status: 'usage',
    message: `${problem}\nUsage: claim-warden ${spec.usage}`,
    data: {},
  };
}

/** Prints a result: JSON on stdout, or its message on stdout (ok) or stderr (otherwise). */
function print(io: CliIo, json: boolean, result: CommandResult): number {
  if (json) io.stdout(`${JSON.stringify(resultJson(result))}\n`);
  else if (result.status === 'ok') io.stdout(`${result.message}\n`);
  else io.stderr(`claim-warden: ${result.message}\n`);
  return exitCode(result.status);
}

async function mcp(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${mcpHelp()}\n`);
    return EXIT_CODES.ok;
  }
  let values: Values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { token: { type: 'string' }, 'stale-after': { type: 'string' } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    io.stderr(
      `claim-warden mcp: ${(error as Error).message}\nUsage: claim-warden mcp [--token T] [--stale-after D]\n`,
    );
    return EXIT_CODES.usage;
  }
  await io.serveMcp({ token: str(values, 'token'), staleAfter: str(values, 'stale-after') });
  return EXIT_CODES.ok;
}

/** The real process's stdin, stdout, stderr and MCP transport. */
export function processIo(): CliIo {
  const runtime = defaultRuntime();
  return {
    runtime,
    async readStdin() {
      if (process.stdin.isTTY) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
      return Buffer.concat(chunks).toString('utf8');
    },
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    async serveMcp(options) {
      const server = mcpServer({ runtime, version: packageVersion(), ...options });
      const closed = new Promise<void>((resolve) => {
        server.server.onclose = resolve;
      });
      // stdout carries the protocol; anything else goes to stderr.
      const transport = new StdioServerTransport();
      await server.connect(transport);
      answerParseErrors(transport);
      process.stdin.once('end', () => void server.close());
      await closed;
    },
  };
}

// Run only as the program itself (bin, `tsx src/client/cli.ts`), not when imported by tests.
const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(realpathSync(entry)).href) {
  cli(process.argv.slice(2), processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `claim-warden: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = EXIT_CODES.unverifiable;
    },
  );
}
