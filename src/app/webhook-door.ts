import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

const MB = 1024 * 1024;

/** GitHub caps webhook payloads at 25 MB (docs: "Webhook payload object" limits). */
const MAX_WEBHOOK_BYTES = 25 * MB;

/**
 * Body bytes held at once, across every delivery being read: charged by bytes received, so a
 * slow sender costs what it sent, not what it declared. The request that would pass it is
 * cut off with 503. Kept under 100 MB so a flood of unsigned bodies stays under that in RSS.
 */
const MAX_IN_FLIGHT_BYTES = 64 * MB;

/**
 * A body is small while it (declared or received so far) is at most this: nearly every
 * delivery GitHub sends is a few kilobytes.
 */
const SMALL_BODY_BYTES = 1 * MB;

/**
 * The part of MAX_IN_FLIGHT_BYTES that large bodies may never take: small bodies (genuine
 * deliveries, almost all) are read even while large unsigned ones fill the rest.
 */
const SMALL_BODY_ALLOWANCE_BYTES = 16 * MB;

/** GitHub gives a delivery 10 s: a body not received by then is cut off with 408. */
const BODY_DEADLINE_MS = 10_000;

/** The door's limits (docs/protocol.md §7); tests may change them. */
export interface WebhookDoorLimits {
  readonly maxBodyBytes?: number;
  readonly maxInFlightBytes?: number;
  readonly smallBodyBytes?: number;
  readonly smallAllowanceBytes?: number;
  /** From the moment the request's headers arrived to its last body byte. */
  readonly bodyDeadlineMs?: number;
}

/** The middleware shape of @octokit/webhooks' createNodeMiddleware, as Probot's server calls it. */
export type NodeMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  // biome-ignore lint/complexity/noBannedTypes: @octokit/webhooks types `next` as Function.
  next?: Function,
) => Promise<boolean>;

/** What the door needs besides what it hands deliveries to. */
interface WebhookDoorOptions extends WebhookDoorLimits {
  /** The webhook path (Probot's `webhookPath`). */
  readonly path: string;
  /** The webhook secret (`WEBHOOK_SECRET`): the door checks `x-hub-signature-256` itself. */
  readonly secret: string;
  readonly log: Logger;
  /** False until the app has loaded: webhooks are answered 503, so GitHub can redeliver. */
  readonly ready: () => boolean;
}

/** What the door hands a genuine delivery to: the request, its answer and its whole body. */
type DeliveryHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
) => Promise<boolean>;

// The headers without which @octokit/webhooks answers 400 before reading the body.
const WEBHOOK_HEADERS = ['x-github-event', 'x-hub-signature-256', 'x-github-delivery'] as const;
const JSON_TYPE = /^\s*application\/json\s*(?:;|$)/u;

/** How a body read ended. */
type Read =
  | { readonly kind: 'complete'; readonly body: Buffer }
  | { readonly kind: 'too-large' | 'busy' | 'late' | 'bad-signature' | 'gone' };

/**
 * The only way in for webhooks: `deliver` gets a request only once the door has read its
 * whole body, within the limits, and found its signature good. Whether a request is a webhook
 * is decided on the path resolved exactly as @octokit/webhooks' middleware resolves it (dot
 * segments, `%2e`, `\`, `#`, absolute form; docs/security.md); any other request is passed
 * on. Refusals: 404 (not POST), 415, 400 (headers), 413 (over 25 MB), 503 (starting, or too
 * many bytes in flight), 408 (not received within 10 s), 401 (signature): docs/protocol.md §7. They log the delivery id, event and size, never the
 * body or the secret.
 */
export function webhookDoor(deliver: DeliveryHandler, options: WebhookDoorOptions): NodeMiddleware {
  const maxBody = options.maxBodyBytes ?? MAX_WEBHOOK_BYTES;
  const maxInFlight = options.maxInFlightBytes ?? MAX_IN_FLIGHT_BYTES;
  const smallBody = options.smallBodyBytes ?? SMALL_BODY_BYTES;
  const largeCap = maxInFlight - (options.smallAllowanceBytes ?? SMALL_BODY_ALLOWANCE_BYTES);
  const deadlineMs = options.bodyDeadlineMs ?? BODY_DEADLINE_MS;
  const webhookPath = trimTrailingSlashes(options.path);
  const { log } = options;
  // Bytes received and held, by small and large bodies: largeHeld never passes largeCap, so
  // small bodies always find at least the allowance free.
  let smallHeld = 0;
  let largeHeld = 0;

  /** One body being read: what it holds of the budget. */
  interface Charge {
    bytes: number;
    large: boolean;
  }

  /** Charges `n` more received bytes to `charge`; false when the budget has no room. */
  function take(charge: Charge, n: number): boolean {
    const bytes = charge.bytes + n;
    const large = charge.large || bytes > smallBody;
    const small = large ? smallHeld - (charge.large ? 0 : charge.bytes) : smallHeld + n;
    const big = large ? largeHeld + (charge.large ? n : bytes) : largeHeld;
    if (big > largeCap || small + big > maxInFlight) return false;
    smallHeld = small;
    largeHeld = big;
    charge.bytes = bytes;
    charge.large = large;
    return true;
  }

  function release(charge: Charge): void {
    if (charge.large) largeHeld -= charge.bytes;
    else smallHeld -= charge.bytes;
    charge.bytes = 0;
  }

  /**
   * Reads the body into its chunks as they came (no copy), hashing each as it arrives, so an
   * unsigned body is refused the moment it is complete, before it is joined or decoded.
   */
  function readBody(req: IncomingMessage, charge: Charge, signature: string): Promise<Read> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      const hmac = createHmac('sha256', options.secret);
      const finish = (read: Read) => {
        clearTimeout(timer);
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('close', onClose);
        if (read.kind !== 'complete') chunks.length = 0;
        resolve(read);
      };
      const timer = setTimeout(() => finish({ kind: 'late' }), deadlineMs);
      const onData = (chunk: Buffer) => {
        if (charge.bytes + chunk.length > maxBody) return finish({ kind: 'too-large' });
        if (!take(charge, chunk.length)) return finish({ kind: 'busy' });
        hmac.update(chunk);
        chunks.push(chunk);
      };
      const onEnd = () => {
        const expected = Buffer.from(`sha256=${hmac.digest('hex')}`);
        const given = Buffer.from(signature);
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          return finish({ kind: 'bad-signature' });
        }
        finish({ kind: 'complete', body: Buffer.concat(chunks, charge.bytes) });
      };
      // The client went away before the end: nothing to answer.
      const onClose = () => finish({ kind: 'gone' });
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('close', onClose);
    });
  }

  return async function webhookDoorMiddleware(req, res, next) {
    if (resolvedPath(req.url) !== webhookPath) {
      // What @octokit/webhooks' middleware does with another path: the next handler's.
      next?.();
      return false;
    }
    if (req.method !== 'POST') {
      answer(res, 404, `Unknown route: ${req.method} ${webhookPath}`);
      return true;
    }
    const delivery = header(req, 'x-github-delivery');
    const event = header(req, 'x-github-event');
    if (!options.ready()) {
      refuse(req, res, 503, 'claim-warden is starting: redeliver once /health answers 200');
      return true;
    }
    const type = header(req, 'content-type');
    if (!type || !JSON_TYPE.test(type)) {
      log.warn({ delivery, event }, 'webhook without content-type application/json refused: 415');
      refuse(req, res, 415, 'Unsupported "Content-Type" header value. Must be "application/json"');
      return true;
    }
    const missing = WEBHOOK_HEADERS.filter((name) => !header(req, name));
    if (missing.length > 0) {
      log.warn({ delivery, event, missing }, 'webhook headers missing: 400');
      refuse(req, res, 400, `Required headers missing: ${missing.join(', ')}`);
      return true;
    }
    const declared = Number(header(req, 'content-length') ?? Number.NaN);
    if (declared > maxBody) {
      log.warn({ delivery, event, bytes: declared }, 'webhook body over 25 MB refused: 413');
      refuse(req, res, 413, `payload over ${maxBody} bytes`);
      return true;
    }
    // Declared large: charged to the large bodies from its first byte.
    const charge: Charge = { bytes: 0, large: declared > smallBody };
    try {
      const read = await readBody(req, charge, header(req, 'x-hub-signature-256') ?? '');
      const bytes = charge.bytes;
      switch (read.kind) {
        case 'complete':
          break;
        case 'too-large':
          log.warn(
            { delivery, event, bytes: `>${maxBody}` },
            'webhook body over 25 MB refused: 413',
          );
          refuse(req, res, 413, `payload over ${maxBody} bytes`);
          return true;
        case 'busy':
          log.warn(
            { delivery, event, bytes, smallHeld, largeHeld },
            'too many webhook bytes in flight: 503',
          );
          refuse(req, res, 503, 'too many deliveries being read at once: redeliver it');
          return true;
        case 'late':
          log.warn(
            { delivery, event, bytes, deadlineMs },
            'webhook body not received in time: 408',
          );
          refuse(req, res, 408, `body not received within ${deadlineMs} ms`);
          return true;
        case 'bad-signature':
          log.warn({ delivery, event, bytes }, 'webhook signature does not match: 401');
          refuse(req, res, 401, 'signature does not match event payload and secret');
          return true;
        case 'gone':
          log.info({ delivery, event, bytes }, 'webhook sender went away before the body ended');
          res.destroy();
          return true;
      }
      return await deliver(req, res, read.body);
    } finally {
      release(charge);
    }
  };
}

/**
 * The path as @octokit/webhooks' middleware resolves it: trailing slashes trimmed, then
 * parsed as a URL (which resolves dot segments, `%2e`, `\`, drops `?` and `#`, and takes
 * an absolute-form target's path). Undefined when it does not parse: never a webhook.
 */
export function resolvedPath(url: string | undefined): string | undefined {
  try {
    return new URL(trimTrailingSlashes(url ?? ''), 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

/** `/a/b//` → `/a/b`; only slashes → `/`: as @octokit/webhooks normalises both paths. */
function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === 0 ? '/' : path.slice(0, end);
}

/** The header's first value; an empty one counts as missing. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) || undefined;
}

function answer(res: ServerResponse, status: number, error: string): void {
  const body = JSON.stringify({ error });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * How long a refused request's connection stays open after the answer is written. Closing a
 * socket with unread bytes resets it, and a reset can destroy the answer before the client
 * read it (it then sees ECONNRESET, not 413).
 */
const REFUSE_GRACE_MS = 500;

/**
 * Answers without keeping (the rest of) the body, then closes the connection: on keep-alive,
 * Node would otherwise read all of it to find the next request. The answer is written at
 * once and the response ended only after REFUSE_GRACE_MS; meanwhile the request is paused,
 * so Node stops reading the socket (each byte read would be a buffer to collect: a flood of
 * refused bodies would pile up garbage). A request whose body has all arrived ends at once.
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
  if (req.complete) {
    res.end();
    return;
  }
  req.removeAllListeners('data');
  req.pause();
  setTimeout(() => res.end(() => req.socket.destroy()), REFUSE_GRACE_MS);
}
