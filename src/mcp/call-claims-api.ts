import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { countedElsewhere } from '../api/caller/counted-elsewhere.js';
import { API_PREFIX } from '../api/claims-api.js';

/** The claims API as the app serves it: resolves false for a path it does not own. */
export type ClaimsApiHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** One request of the claims API, as a tool makes it. */
export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The route under `/api/claims/v1`, query included: `/repos/acme/widgets/issues/7/claim`. */
  readonly path: string;
  /** The caller's `Authorization` header, as the MCP request carried it. */
  readonly authorization: string | undefined;
  readonly body?: unknown;
  /** The MCP request's peer address: the API bounds lookups of unknown tokens by it. */
  readonly clientAddress?: string | undefined;
}

/** The API's answer: status, headers (lower-case names) and the parsed JSON body. */
export interface ApiReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, handed on as it is
  readonly body: any;
}

/**
 * Runs one request through the claims API's own handler, in process: the same route wiring,
 * authentication, caches, locks and read-backs as a REST call (docs/protocol.md §8), so a
 * tool is an adapter and never a second implementation. The remote MCP server counts each of
 * its requests against the caller's limits once, so the request is marked as counted.
 */
export async function callClaimsApi(api: ClaimsApiHandler, request: ApiRequest): Promise<ApiReply> {
  const payload =
    request.body === undefined ? [] : [Buffer.from(JSON.stringify(request.body), 'utf8')];
  const req = countedElsewhere(
    Object.assign(Readable.from(payload), {
      method: request.method,
      url: `${API_PREFIX}${request.path}`,
      headers: {
        ...(request.authorization === undefined ? {} : { authorization: request.authorization }),
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      socket: { remoteAddress: request.clientAddress },
    }),
  ) as unknown as IncomingMessage;
  const res = new CapturedResponse();
  const served = await api(req, res as unknown as ServerResponse);
  if (!served) throw new Error(`the claims API does not serve ${request.path}`);
  const text = res.text();
  return {
    status: res.statusCode,
    headers: res.headerRecord(),
    body: text ? JSON.parse(text) : null,
  };
}

/** The part of ServerResponse the API's handler writes with, kept in memory. */
class CapturedResponse {
  statusCode = 200;
  headersSent = false;
  private readonly headers = new Map<string, string>();
  private readonly chunks: Buffer[] = [];

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    return this;
  }
  getHeader(name: string): string | undefined {
    return this.headers.get(name.toLowerCase());
  }
  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }
  writeHead(status: number, headers?: Record<string, string | number>): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }
  write(chunk: string | Buffer): boolean {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'utf8'));
    return true;
  }
  end(chunk?: string | Buffer): this {
    if (chunk !== undefined) this.write(chunk);
    this.headersSent = true;
    return this;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
  headerRecord(): Record<string, string> {
    return Object.fromEntries(this.headers);
  }
}
