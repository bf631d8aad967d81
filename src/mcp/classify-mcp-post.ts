import type { IncomingMessage } from 'node:http';
import {
  type InitializeRequest,
  isInitializeRequest,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** What a POST to `/mcp` is, decided before any session is opened or touched. */
type McpPost =
  /** A refusal the transport would give anyway: answered as is, nothing opened or touched. */
  | {
      readonly kind: 'refused';
      readonly status: number;
      readonly code: number;
      readonly message: string;
    }
  /** A lone `initialize`: the one request that opens a session. */
  | { readonly kind: 'initialize'; readonly initialize: InitializeRequest }
  /** Anything else: it belongs to the session the server issued. */
  | { readonly kind: 'in-session' };

/**
 * Classifies a POST to `/mcp` the way the SDK's Streamable HTTP transport will judge it
 * (Accept, Content-Type, JSON-RPC shape, one `initialize` alone), so that a request the
 * transport refuses neither opens a session nor takes a place of the caller's cap. An empty
 * batch is an Invalid Request (JSON-RPC 2.0 §6), not a 202: it carries nothing to accept.
 */
export function classifyMcpPost(req: IncomingMessage, message: unknown): McpPost {
  const accept = String(req.headers.accept ?? '');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return refused(
      406,
      -32000,
      'Not Acceptable: accept both application/json and text/event-stream',
    );
  }
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type !== 'application/json') {
    return refused(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const messages = Array.isArray(message) ? message : [message];
  if (messages.length === 0) {
    return refused(400, -32600, 'Invalid Request: an empty batch carries no message');
  }
  if (!messages.every((m) => JSONRPCMessageSchema.safeParse(m).success)) {
    return refused(400, -32700, 'Parse error: not a JSON-RPC message');
  }
  const initializes = messages.filter(isInitializeRequest);
  if (initializes.length === 0) return { kind: 'in-session' };
  if (messages.length > 1) {
    return refused(400, -32600, 'Invalid Request: initialize must be sent alone');
  }
  return { kind: 'initialize', initialize: initializes[0] as InitializeRequest };
}

function refused(status: number, code: number, message: string): McpPost {
  return { kind: 'refused', status, code, message };
}
