import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../api/caller/authenticate.js';
import type { ClaimsApi, OperationReply } from '../api/claims-api.js';
import type { OperationRequest } from '../api/operation-handlers.js';
import { OPERATIONS } from '../operations/catalogue.js';
import type { Operation } from '../operations/operation.js';
import { listPortableToolSchemas } from '../operations/portable-tool-schemas.js';
import { parseIssueName, parseRepoName } from '../repo-names.js';
import { CallCancelled, type ToolExtra, whileWaiting } from './while-waiting.js';

/** What the tools of one MCP request share. */
interface RemoteToolContext {
  readonly api: ClaimsApi;
  /** The caller the MCP request was admitted as: each tool call is that caller's operation. */
  readonly caller: Caller;
  /** The session's client label (`initialize`'s `clientInfo.name`, folded), if any. */
  readonly client: string | undefined;
  /** How often a waiting call reports progress, when the client asked for it. */
  readonly progressEveryMs: number;
}

type Args = Record<string, unknown>;

/** The error object of a 422 naming one field (docs/protocol.md §8), as the API words it. */
function invalidField(field: string, rule: string): OperationReply {
  return {
    status: 422,
    headers: {},
    body: {
      error: {
        code: 'INVALID_INPUT',
        message: `fix ${field} and send the request again`,
        details: { fields: { [field]: rule } },
      },
    },
  };
}

/**
 * The API's answer as a tool result: a success's body is the structured content (it validates
 * against the tool's outputSchema); a refusal (403, 404, 409, 422, 429, 503 …) is a result with
 * `isError: true` whose text is the API's error object, never a protocol error, and whose
 * `_meta` carries the status and, for 429 and 503, when to retry.
 */
function toolResult(reply: OperationReply): CallToolResult {
  const text = JSON.stringify(reply.body);
  if (reply.status >= 200 && reply.status < 300) {
    return { content: [{ type: 'text', text }], structuredContent: reply.body };
  }
  const retryAfter = Number(reply.headers['retry-after']);
  return {
    content: [{ type: 'text', text }],
    isError: true,
    _meta: {
      'claim-warden/status': reply.status,
      ...(Number.isFinite(retryAfter) ? { 'claim-warden/retryAfterSeconds': retryAfter } : {}),
    },
  };
}

/**
 * A tool's arguments as its operation's request: the issue or repository its `issue` or
 * `repo` argument names, and the rest as the body (the claim's client defaulting to this MCP
 * client's name); text that names no issue or repository is a 422 naming the argument.
 */
function requestOf(
  operation: Operation,
  args: Args,
  client: string | undefined,
): OperationRequest | OperationReply {
  // A route that names nothing (a session's claims): the arguments are the body.
  if (operation.target === 'none') return { body: args };
  if (operation.target === 'repo') {
    const name = parseRepoName(String(args.repo));
    if (!name) return invalidField('repo', '<owner>/<repo>');
    const query = new URLSearchParams({ paths: (args.paths as string[]).join(',') });
    return { ...name, query };
  }
  const { issue, ...rest } = args;
  const name = parseIssueName(String(issue));
  if (!name) return invalidField('issue', '<owner>/<repo>#<number>');
  const where = { owner: name.owner, repo: name.repo, number: name.number };
  if (operation.method === 'GET') return where;
  const chosen = operation.name === 'claim' ? (rest.client ?? client) : undefined;
  return { ...where, body: chosen === undefined ? rest : { ...rest, client: chosen } };
}

/**
 * Registers the remote tools (docs/agents.md): one per operation of the catalogue
 * (src/operations/), its name, description and schemas as declared there. A tool call is one
 * call of the operation's handler with the typed arguments, as the MCP request's admitted
 * caller: no HTTP request of the API, no second look-up of who is calling.
 */
export function registerRemoteTools(server: McpServer, context: RemoteToolContext): void {
  const call = (operation: Operation, request: OperationRequest, extra: ToolExtra) => {
    // Cancelled before it began (or between the pages of `all`): nothing more is asked.
    if (extra.signal.aborted) throw new CallCancelled('the client cancelled the call');
    return whileWaiting(
      context.api.run(operation.name, context.caller, request),
      extra,
      context.progressEveryMs,
    );
  };
  const queue = async (operation: Operation, args: Args, extra: ToolExtra) => {
    const { all, ...filters } = args;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filters)) {
      if (value !== undefined) query.set(name, String(value));
    }
    const items: unknown[] = [];
    for (;;) {
      const reply = await call(operation, { query }, extra);
      if (reply.status !== 200) return toolResult(reply);
      items.push(...reply.body.items);
      if (!all || reply.body.nextCursor === null) {
        return toolResult({ ...reply, body: { items, nextCursor: reply.body.nextCursor } });
      }
      query.set('cursor', reply.body.nextCursor);
    }
  };
  for (const operation of OPERATIONS) {
    server.registerTool(
      operation.tool,
      {
        title: operation.title,
        description: operation.description,
        inputSchema: operation.input,
        outputSchema: operation.answer,
        annotations: operation.hints,
      },
      async (args: Args, extra: ToolExtra) => {
        if (operation.target === 'none' && operation.method === 'GET') {
          return queue(operation, args, extra);
        }
        const request = requestOf(operation, args, context.client);
        if ('status' in request) return toolResult(request);
        return toolResult(await call(operation, request, extra));
      },
    );
  }
  listPortableToolSchemas(server);
}
