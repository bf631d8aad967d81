import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listPortableToolSchemas } from '../../operations/portable-tool-schemas.js';
import { resultJson } from '../core/result-json.js';
import type { ClientRuntime } from '../io/runtime.js';
import { commands } from './commands.js';
import { runCommand } from './run-command.js';

/** What the server shares across tool calls. */
interface McpServerOptions {
  readonly runtime: ClientRuntime;
  /** `claim-warden mcp --token`; otherwise GITHUB_TOKEN or `gh auth token`, per call. */
  readonly token?: string | undefined;
  /** `claim-warden mcp --stale-after`: the window for calls that do not name one. */
  readonly staleAfter?: string | undefined;
  readonly version: string;
}

// Every tool answers with the same envelope as `--json`; the details vary per command.
const ResultEnvelope = z.looseObject({
  status: z.enum(['ok', 'refused', 'usage', 'unverifiable', 'setup']),
  exitCode: z.number().int(),
  message: z.string(),
});

/**
 * The MCP server: one tool per client command, built on the same command objects the CLI
 * runs (docs/agents.md, "MCP"), so a tool call and the
 * matching CLI invocation give the same result. The structured content is exactly the CLI's
 * `--json` object; the text content carries the same JSON for clients without structured
 * output. A result other than `ok` is flagged `isError`, with the exit code the CLI would
 * use, so an agent cannot mistake a refusal for a claim.
 */
export function mcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'claim-warden', version: options.version });
  const callCommand = async (
    command: (typeof commands)[number],
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) => {
    // Only commands that read GitHub's threads take a window; the queue's answers are the app's.
    const input =
      options.staleAfter !== undefined &&
      'staleAfter' in command.input &&
      args.staleAfter === undefined
        ? { ...args, staleAfter: options.staleAfter }
        : args;
    const result = await runCommand(command, input, {
      runtime: options.runtime,
      token: options.token,
      signal,
    });
    const json = resultJson(result);
    return {
      content: [{ type: 'text' as const, text: JSON.stringify(json) }],
      structuredContent: json,
      isError: result.status !== 'ok',
    };
  };
  for (const command of commands) {
    server.registerTool(
      command.tool,
      {
        title: command.title,
        description: command.description,
        inputSchema: command.input,
        outputSchema: ResultEnvelope,
        annotations: {
          readOnlyHint: command.readOnly,
          destructiveHint: command.name === 'migrate',
          idempotentHint: command.readOnly,
          openWorldHint: true,
        },
      },
      (args, extra) => callCommand(command, args, extra.signal),
    );
  }
  // Input that fails a tool's schema gets the documented envelope (status usage, the CLI's
  // exit code), as the CLI answers it, not the SDK's bare error text: each command validates
  // its own input (ClientCommand.run), so calls go to it directly. The schemas registered
  // above still describe the tools in tools/list.
  const byTool = new Map(commands.map((command) => [command.tool, command]));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const command = byTool.get(request.params.name);
    if (!command) {
      throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    }
    return callCommand(command, request.params.arguments ?? {}, extra.signal);
  });
  listPortableToolSchemas(server);
  return server;
}
