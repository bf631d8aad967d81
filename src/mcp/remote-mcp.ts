import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Caller } from '../api/caller/authenticate.js';
import type { ClaimsApi } from '../api/claims-api.js';
import { clientLabel } from './client-label.js';
import type { McpSessions } from './mcp-sessions.js';
import { originAllowed } from './origin-allowed.js';
import { appBaseUrl, bearerChallenge } from './protected-resource.js';
import { registerRemoteTools } from './remote-tools.js';

/** Where the remote MCP server answers, on the app's own port. */
export const MCP_PATH = '/mcp';

/** The limits of the remote MCP server (all options, so tests and operators can set them). */
export interface RemoteMcpLimits {
  /** The largest request body read; a tool call is a few hundred bytes (default 256 KiB). */
  readonly maxBodyBytes: number;
  /** Sessions one caller (token) holds at once (default 16). */
  readonly maxSessionsPerCaller: number;
  /** A session ends this long after its last request (default 30 minutes). */
  readonly idleMs: number;
  /** How often a waiting tool call reports progress when asked to (default 1 s). */
  readonly progressEveryMs: number;
}

/** The defaults of {@link RemoteMcpLimits}. */
const DEFAULT_MCP_LIMITS: RemoteMcpLimits = {
  maxBodyBytes: 256 * 1024,
  maxSessionsPerCaller: 16,
  idleMs: 30 * 60_000,
  progressEveryMs: 1000,
};

/** What the remote MCP server is built from. */
interface RemoteMcpOptions {
  /** The claims API the app serves: it admits each request's caller and runs each tool call. */
  readonly api: ClaimsApi;
  readonly sessions: McpSessions;
  readonly log: Logger;
  /** `CLAIMS_PUBLIC_URL`: the allowed browser origin and the base of the metadata link. */
  readonly publicUrl?: string | undefined;
  readonly version: string;
  readonly limits?: Partial<RemoteMcpLimits>;
}

/**
 * `/mcp`: MCP over Streamable HTTP (README, "Remote MCP") with the official SDK, at the newest protocol
 * version it offers. Every request is checked before the SDK sees it: its `Origin` (DNS
 * rebinding), the caller's GitHub token (resolved by the claims API itself, docs/protocol.md §8:
 * 401 with the RFC 9728 challenge otherwise), its size, and its session. The SDK transport runs
 * per request without state of its own; a session is only a record in the shared store (the
 * caller's token hash and the client's name), so any replica answers any request.
 */
export function remoteMcp(
  options: RemoteMcpOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const limits = { ...DEFAULT_MCP_LIMITS, ...options.limits };
  const log = options.log.child({ name: 'mcp' });
  return async (req, res) => {
    if (!originAllowed(req, options.publicUrl)) {
      return refuse(res, 403, 'this Origin may not call /mcp: only the app’s own pages may');
    }
    if (req.method === 'GET') {
      // No server-initiated messages: the standalone stream is not offered (the spec's 405).
      res.setHeader('allow', 'POST, DELETE');
      return refuse(res, 405, 'this server sends no messages of its own: POST requests only');
    }
    const admitted = await identify(options, req, res);
    if (admitted === null) return;
    const caller = admitted.tokenHash;
    const sessionId = header(req, 'mcp-session-id');
    if (req.method === 'DELETE') {
      if (sessionId === undefined) return refuse(res, 400, 'name the session in Mcp-Session-Id');
      const ended = await options.sessions.end(sessionId, caller);
      if (!ended) return refuse(res, 404, 'no such session');
      res.writeHead(200).end();
      return;
    }
    const body = await readBody(req, limits.maxBodyBytes);
    if (body === 'too large') {
      return refuse(res, 413, `a request body holds at most ${limits.maxBodyBytes} bytes`);
    }
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return refuse(res, 400, 'Parse error: the body is not JSON', -32700);
    }
    let client: string | undefined;
    const initialize = (Array.isArray(message) ? message : [message]).find(isInitializeRequest);
    if (initialize) {
      client = clientLabel(initialize.params.clientInfo.name);
      const id = randomUUID();
      const started = await options.sessions.start(
        id,
        { tokenHash: caller, ...(client === undefined ? {} : { client }) },
        limits.idleMs,
        limits.maxSessionsPerCaller,
      );
      if (!started) {
        return refuse(
          res,
          429,
          `this token holds ${limits.maxSessionsPerCaller} MCP sessions already: end one (DELETE /mcp) or let one idle out`,
        );
      }
      res.setHeader('mcp-session-id', id);
    } else if (sessionId !== undefined) {
      const record = await options.sessions.touch(sessionId, caller, limits.idleMs);
      // The spec's answer for a session that is over: the client starts a new one.
      if (record === null) return refuse(res, 404, 'Session not found: initialize again');
      client = record.client;
    }
    const server = new McpServer(
      { name: 'claim-warden', version: options.version },
      { capabilities: { tools: {} } },
    );
    registerRemoteTools(server, {
      api: options.api,
      caller: admitted,
      client,
      progressEveryMs: limits.progressEveryMs,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, message);
    } catch (err) {
      log.error({ err }, 'mcp: request failed');
      if (!res.headersSent) refuse(res, 500, 'the request could not be completed', -32603);
    }
  };
}

/**
 * The caller of the request, admitted once by the claims API (docs/protocol.md §8): counted
 * against the token's limits until the response is over, and resolved by the cached
 * `GET /user`; every tool call of the request runs as this caller. Otherwise answers the
 * API's status (401 with the challenge, 429 or 503 with `retry-after`) and resolves null.
 */
async function identify(
  options: RemoteMcpOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Caller | null> {
  const authorization = req.headers.authorization;
  const admission = await options.api.admit(authorization);
  if (admission.ok) {
    res.on('close', admission.leave);
    if (res.closed) admission.leave();
    return admission.caller;
  }
  const { reply } = admission;
  const token = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  const message = String(reply.body?.error?.message ?? 'the token could not be checked');
  if (reply.status === 401 || token === undefined) {
    res.setHeader(
      'www-authenticate',
      bearerChallenge(appBaseUrl(req, options.publicUrl), token !== undefined),
    );
    refuse(res, 401, message);
    return null;
  }
  const retryAfter = reply.headers['retry-after'];
  if (retryAfter !== undefined) res.setHeader('retry-after', retryAfter);
  refuse(res, reply.status === 429 ? 429 : 503, message);
  return null;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The body as text, or 'too large' past `max` bytes (the rest is not read). */
async function readBody(req: IncomingMessage, max: number): Promise<string | 'too large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return 'too large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return 'too large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An HTTP refusal with a JSON-RPC error body, as the SDK's transport answers its own. */
function refuse(res: ServerResponse, status: number, message: string, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
