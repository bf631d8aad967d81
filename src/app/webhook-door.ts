import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** GitHub caps webhook payloads at 25 MB (docs: "Webhook payload object" limits). */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

/**
 * Bodies read at once, in bytes, across every delivery in flight: four of GitHub's largest.
 * A flood of large bad requests then costs at most this much memory; the request over it is
 * answered 503 and GitHub's redelivery (or its sender) tries again.
 */
export const MAX_IN_FLIGHT_BYTES = 4 * MAX_WEBHOOK_BYTES;

/** The middleware shape of @octokit/webhooks' createNodeMiddleware, as Probot's server calls it. */
export type NodeMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  // biome-ignore lint/complexity/noBannedTypes: @octokit/webhooks types `next` as Function.
  next?: Function,
) => Promise<boolean>;

/** What the door needs besides the middleware it guards. */
export interface WebhookDoorOptions {
  /** The webhook path (Probot's `webhookPath`). */
  readonly path: string;
  readonly log: Logger;
  /** False until the app has loaded: webhooks are answered 503, so GitHub can redeliver. */
  readonly ready: () => boolean;
  readonly maxBodyBytes?: number;
  readonly maxInFlightBytes?: number;
}

// The headers without which @octokit/webhooks answers 400 before reading the body.
const WEBHOOK_HEADERS = ['x-github-event', 'x-hub-signature-256', 'x-github-delivery'];
const JSON_TYPE = /^\s*application\/json\s*(?:;|$)/u;

/**
 * Wraps Probot's webhook middleware so that the body is read here, bounded: a declared
 * `content-length` over the limit is answered 413 before a byte is read, a body that grows
 * past it while streaming is cut off with 413, and the bytes read at once across deliveries
 * are capped. The body is then handed on as a string (`req.body`, which @octokit/webhooks'
 * getPayload takes as is). Refusals log the delivery id, event and size, never the body.
 */
export function webhookDoor(inner: NodeMiddleware, options: WebhookDoorOptions): NodeMiddleware {
  const maxBody = options.maxBodyBytes ?? MAX_WEBHOOK_BYTES;
  const maxInFlight = options.maxInFlightBytes ?? MAX_IN_FLIGHT_BYTES;
  const { log } = options;
  let inFlight = 0;

  return async function boundedWebhooks(req, res, next) {
    if (req.method !== 'POST' || pathOf(req.url) !== options.path) return inner(req, res, next);
    const delivery = header(req, 'x-github-delivery');
    const event = header(req, 'x-github-event');
    if (!options.ready()) {
      refuse(req, res, 503, 'claim-warden is starting: redeliver once /health answers 200');
      return true;
    }
    // Requests @octokit/webhooks refuses without reading (415, 400) are left to it.
    const type = header(req, 'content-type');
    if (!type || !JSON_TYPE.test(type) || WEBHOOK_HEADERS.some((h) => !header(req, h))) {
      return inner(req, res, next);
    }
    const declared = Number(header(req, 'content-length') ?? Number.NaN);
    if (declared > maxBody) {
      log.warn({ delivery, event, bytes: declared }, 'webhook body over 25 MB refused: 413');
      refuse(req, res, 413, `payload over ${maxBody} bytes`);
      return true;
    }
    const reserved = Number.isFinite(declared) ? declared : maxBody;
    if (inFlight + reserved > maxInFlight) {
      log.warn({ delivery, event, inFlight }, 'too many webhook bytes in flight: 503');
      refuse(req, res, 503, 'too many deliveries being read at once: redeliver it');
      return true;
    }
    inFlight += reserved;
    try {
      const body = await readBody(req, maxBody);
      if (body === null) {
        log.warn({ delivery, event, bytes: `>${maxBody}` }, 'webhook body over 25 MB refused: 413');
        refuse(req, res, 413, `payload over ${maxBody} bytes`);
        return true;
      }
      (req as IncomingMessage & { body?: string }).body = body;
      return await inner(req, res, next);
    } finally {
      inFlight -= reserved;
    }
  };
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  const path = query === -1 ? raw : raw.slice(0, query);
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The body as UTF-8 text, or null once it passes `max` bytes (what was read is dropped and
 * the rest is not read). Rejects when the client goes away.
 */
function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > max) {
        req.off('data', onData);
        req.pause();
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, bytes).toString('utf8')));
    req.once('error', reject);
  });
}

/**
 * How long a refused request's connection stays open after the answer is written. Closing a
 * socket with unread bytes resets it, and a reset can destroy the answer before the client
 * read it (it then sees ECONNRESET, not 413); meanwhile what it still sends is discarded.
 */
const REFUSE_GRACE_MS = 500;

/**
 * Answers without keeping (the rest of) the body, then closes the connection: on keep-alive,
 * Node would otherwise read all of it to find the next request. The answer is written at
 * once and the response ended only after REFUSE_GRACE_MS, bytes still arriving discarded.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, error: string): void {
  const body = JSON.stringify({ error });
  res.shouldKeepAlive = false;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
    ...(status === 503 ? { 'retry-after': '1' } : {}),
  });
  res.write(body);
  req.removeAllListeners('data');
  req.on('data', discard);
  req.resume();
  setTimeout(() => res.end(() => req.socket.destroy()), REFUSE_GRACE_MS);
}

function discard(): void {}
