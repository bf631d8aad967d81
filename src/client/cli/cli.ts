#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CommandResult } from '../core/command-result.js';
import { EXIT_CODES, exitCode } from '../core/exit-codes.js';
import { resultJson } from '../core/result-json.js';
import { defaultRuntime } from '../io/runtime.js';
import { answerParseErrors } from './answer-parse-errors.js';
import { argvProblem } from './argv-problem.js';
import { help, mcpHelp } from './cli-help.js';
import type { CliIo } from './cli-io.js';
import { type CliSpec, COMMON, specOf, str, type Values } from './cli-specs.js';
import { mcpServer } from './mcp-server.js';
import { packageVersion } from './package-version.js';
import { runCommand } from './run-command.js';

export type { CliIo } from './cli-io.js';

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
  const spec = specOf(name, rest);
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
    const known = Object.keys({ ...COMMON, ...spec.options });
    return print(io, false, usage(spec, argvProblem(error, known)));
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
      `claim-warden mcp: ${argvProblem(error, ['token', 'stale-after'])}\nUsage: claim-warden mcp [--token T] [--stale-after D]\n`,
    );
    return EXIT_CODES.usage;
  }
  await io.serveMcp({ token: str(values, 'token'), staleAfter: str(values, 'stale-after') });
  return EXIT_CODES.ok;
}

/** The real process's stdin, stdout, stderr and MCP transport. */
function processIo(): CliIo {
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
