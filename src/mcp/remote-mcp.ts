import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from 'pino';
import { ApiError } from '../api/answers/api-error.js';
import type { Caller } from '../api/caller/authenticate.js';
import { tokenHashOf } from '../api/caller/authenticate.js';
import type { CallerLimits } from '../api/caller/caller-limits.js';
import type { ClaimsApi } from '../api/claims-api.js';
import { requestBaseUrl } from '../request-base-url.js';
import { classifyMcpPost } from './classify-mcp-post.js';
import { clientLabel } from './client-label.js';
import type { McpSessions } from './mcp-sessions.js';
import { originAllowed } from './origin-allowed.js';
import { bearerChallenge } from './protected-resource.js';
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
  /** The claims API the app serves: it names each request's caller and runs each tool call. */
  readonly api: ClaimsApi;
  /** The claims API's per-caller limits: each MCP request counts once (docs/protocol.md §8). */
  readonly callerLimits: CallerLimits;
  readonly sessions: McpSessions;
  readonly log: Logger;
  /** `CLAIMS_PUBLIC_URL`: the allowed browser origin and the base of the metadata link. */
  readonly publicUrl?: string | undefined;
  /** `CLAIMS_TRUST_PROXY`: whether `X-Forwarded-Proto` may make the metadata link https. */
  readonly trustProxy?: boolean | undefined;
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
    const leave = await admit(options.callerLimits, req, res);
    if (leave === null) return;
    res.once('close', leave);
    const identified = await identify(options, req, res);
    if (identified === null) return;
    const caller = identified.tokenHash;
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
    const post = classifyMcpPost(req, message);
    if (post.kind === 'refused') return refuse(res, post.status, post.message, post.code);
    let client: string | undefined;
    let opened: string | undefined;
    if (post.kind === 'initialize') {
      client = clientLabel(post.initialize.params.clientInfo.name);
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
      opened = id;
      res.setHeader('mcp-session-id', id);
    } else {
      // The server issues sessions, so a request outside one is a Bad Request (the transport
      // spec's rule for such servers): otherwise the per-caller cap would bound nothing.
      if (sessionId === undefined) {
        return refuse(
          res,
          400,
          'Bad Request: name the session initialize issued in Mcp-Session-Id',
        );
      }
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
      caller: identified,
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
    // An initialize the transport still refused leaves no session holding a place of the cap.
    if (opened !== undefined && res.statusCode !== 200) await options.sessions.end(opened, caller);
  };
}

/**
 * The caller of the request, named once by the claims API (docs/protocol.md §8: the cached
 * `GET /user`); every tool call of the request runs as this caller, with no look-up of its
 * own. Otherwise answers the API's status (401 with the challenge, 429 or 503 with
 * `retry-after`) and resolves null.
 */
async function identify(
  options: RemoteMcpOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Caller | null> {
  const authorization = req.headers.authorization;
  const identified = await options.api.identify(authorization, req.socket.remoteAddress);
  if (identified.ok) return identified.caller;
  const { reply } = identified;
  const token = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  const message = String(reply.body?.error?.message ?? 'the token could not be checked');
  if (reply.status === 401 || token === undefined) {
    res.setHeader(
      'www-authenticate',
      bearerChallenge(requestBaseUrl(req, options), token !== undefined),
    );
    refuse(res, 401, message);
    return null;
  }
  const retryAfter = reply.headers['retry-after'];
  if (retryAfter !== undefined) res.setHeader('retry-after', retryAfter);
  refuse(res, reply.status === 429 ? 429 : 503, message);
  return null;
}

/**
 * docs/protocol.md §8 "Limits": an MCP request with a token counts once against that token's
 * limits, before anything else is done for it, and holds its place among the token's calls
 * running at once until it is answered; what is done inside it (the token's check, the tool
 * calls, each one run of its operation) counts no more. Resolves the function that ends it, or answers 429 with
 * `retry-after` and resolves null. A request without a token costs nothing here (it is 401).
 */
async function admit(
  limits: CallerLimits,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<(() => void) | null> {
  const token = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (token === undefined) return () => {};
  try {
    return await limits.enter(tokenHashOf(token));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    refuse(res, error.status, error.message);
    return null;
  }
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
