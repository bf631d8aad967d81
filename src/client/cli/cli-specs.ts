import { OUTCOMES } from '../../claims/marker.js';
import { usageError } from '../core/client-error.js';
import type { CliIo } from './cli-io.js';
import { type ClientCommand, commands } from './commands.js';

/** How each subcommand of `claim-warden` reads its command line (docs/agents.md). */
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;
type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };

/** How each subcommand reads its command line: its flags, its positional, its input. */
export interface CliSpec {
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

export const COMMON: Record<string, OptionSpec> = {
  json: { type: 'boolean' },
  token: { type: 'string' },
  'stale-after': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

/** `--outcome`, checked against the outcomes of docs/protocol.md §1. */
function outcomeOf(values: Values): string | undefined {
  const outcome = str(values, 'outcome');
  if (outcome !== undefined && !(OUTCOMES as readonly string[]).includes(outcome)) {
    throw usageError(
      `--outcome must be landed, abandoned or handed-over, not ${JSON.stringify(outcome)}`,
    );
  }
  return outcome;
}

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
    input: async (v, [ref]) =>
      defined({
        issue: ref,
        session: str(v, 'session'),
        outcome: outcomeOf(v),
        note: str(v, 'note'),
        staleAfter: str(v, 'stale-after'),
      }),
  },
  'release-all': {
    usage: 'release --all --session S [--outcome landed|abandoned|handed-over] [--note T]',
    options: {
      all: { type: 'boolean' },
      session: { type: 'string' },
      outcome: { type: 'string' },
      note: { type: 'string' },
    },
    required: ['session'],
    positionals: { count: 0, wanted: 'no issue reference with --all' },
    input: async (v) =>
      defined({ session: str(v, 'session'), outcome: outcomeOf(v), note: str(v, 'note') }),
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

export const SPECS: readonly CliSpec[] = commands.map((command) => ({
  command,
  ...LINES[command.name],
}));

/**
 * The spec of `claim-warden <name> …argv`: `release --all` is the release of everything a
 * session holds (its own command, sharing the subcommand's name); `release-all` is no
 * subcommand of its own.
 */
export function specOf(name: string, argv: readonly string[]): CliSpec | undefined {
  const wanted = name === 'release' && argv.includes('--all') ? 'release-all' : name;
  if (name === 'release-all') return undefined;
  return SPECS.find((s) => s.command.name === wanted);
}
