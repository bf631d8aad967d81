import { getTransformStream } from '@probot/pino';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { Settings } from '../config/settings.js';

/**
 * The process's one root logger, handed to Probot and to the app:
 * - `LOG_FORMAT=pretty` formats lines as Probot's own logger does (@probot/pino), else JSON;
 * - a child's `name` replaces its parent's instead of repeating the key
 *   (`"name":"claim-warden","name":"probot"` was one line's bindings);
 * - an error is logged without the webhook it carries (@octokit/webhooks attaches the whole
 *   delivery, payload included, to every error of a refused or failed delivery: lines of
 *   26–52 MB for a large unsigned body). Its delivery id and event name are kept;
 * - Probot's request log (`GitHub request: METHOD URL - STATUS`, at debug) spreads the
 *   request's body into the line, so a label's `name` became a second `name` key: the body
 *   goes under `body` instead.
 */
export async function createLog(
  settings: Pick<Settings, 'logLevel' | 'logFormat'>,
  destination?: DestinationStream & NodeJS.WritableStream,
): Promise<Logger> {
  const options = {
    level: settings.logLevel,
    name: 'claim-warden',
    serializers: { err: errorWithoutPayload },
    onChild: keepOneName,
    hooks: { logMethod: nestProbotRequestBody },
    // A second guard: Probot's HTTP log, which wrote request headers, is silenced
    // (withoutProbotHttpLog); should any line still carry them, the claims API's bearer
    // tokens and the board's session cookie must not appear.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  };
  if (settings.logFormat === 'pretty') {
    const transform = await getTransformStream({ logFormat: 'pretty' });
    transform.pipe(destination ?? process.stdout);
    return pino(options, transform);
  }
  return destination ? pino(options, destination) : pino(options);
}

/** Probot's octokit request-logging plugin: `octokit.log.debug(params.body || {}, msg)`. */
function nestProbotRequestBody(
  this: Logger,
  args: Parameters<Logger['debug']>,
  method: (...args: unknown[]) => void,
): void {
  const [fields, message, ...rest] = args as unknown[];
  if (
    typeof message === 'string' &&
    message.startsWith('GitHub request: ') &&
    typeof fields === 'object' &&
    fields !== null
  ) {
    const body = Object.keys(fields).length > 0 ? { body: fields } : {};
    method.apply(this, [body, message, ...rest]);
    return;
  }
  method.apply(this, args as unknown[]);
}

const { chindingsSym } = pino.symbols;
const NAME_KEY = ',"name":"';

// pino writes a child's bindings after its parent's as one string, so a second `name` is a
// second key in every line. Keep the last (the most specific, as JSON.parse would read it).
// Runs for every child (Probot makes one per delivery), so it scans rather than matches a
// regular expression: a parent's bindings hold one name at most, the child adds one.
function keepOneName(child: Logger): void {
  const holder = child as unknown as Record<symbol, string>;
  let bindings = holder[chindingsSym];
  if (typeof bindings !== 'string') return;
  const last = bindings.lastIndexOf(NAME_KEY);
  let first = bindings.indexOf(NAME_KEY);
  if (first === last) return;
  while (first !== -1 && first < bindings.lastIndexOf(NAME_KEY)) {
    bindings =
      bindings.slice(0, first) + bindings.slice(endOfString(bindings, first + NAME_KEY.length));
    first = bindings.indexOf(NAME_KEY);
  }
  holder[chindingsSym] = bindings;
}

/** The index just past the closing quote of the JSON string whose text starts at `from`. */
function endOfString(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/**
 * pino's error serializer, minus the delivery @octokit/webhooks attaches as `event`, and with
 * a GitHub request error (octokit's RequestError, thrown or the cause of one) said in one
 * short object, `github: { method, path, status, message, requestId }`, instead of the
 * request and response octokit attaches (900 characters and more: headers, body, URL).
 */
function errorWithoutPayload(error: unknown): unknown {
  const serialized = scrub(pino.stdSerializers.err(error as Error));
  const github = githubFailure(error);
  if (github && typeof serialized === 'object' && serialized !== null) {
    return { ...withoutRequest(serialized as Record<string, unknown>), github };
  }
  return serialized;
}

/** What an on-call engineer needs of a failed GitHub request. */
interface GitHubFailure {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly message: string;
  readonly requestId?: string;
}

/** The first octokit RequestError on `error`'s cause chain, said briefly; else undefined. */
function githubFailure(error: unknown): GitHubFailure | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { status, request, response } = e as Error & {
      status?: unknown;
      request?: { method?: unknown; url?: unknown };
      response?: { data?: unknown; headers?: Record<string, unknown> };
    };
    if (typeof status !== 'number' || typeof request?.url !== 'string') continue;
    const data = response?.data as { message?: unknown } | undefined;
    const requestId = response?.headers?.['x-github-request-id'];
    return {
      method: String(request.method ?? ''),
      path: pathOf(request.url),
      status,
      message: typeof data?.message === 'string' ? data.message : e.message,
      ...(typeof requestId === 'string' ? { requestId } : {}),
    };
  }
  return undefined;
}

/** The path of a request URL, without GitHub Enterprise's `/api/v3` or a query. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/^\/api\/v3(?=\/)/, '');
  } catch {
    return url.split('?')[0] ?? url;
  }
}

/** A serialized error without the request and response octokit attaches to it. */
function withoutRequest(serialized: Record<string, unknown>): Record<string, unknown> {
  const { request: _request, response: _response, ...rest } = serialized;
  return rest;
}

function scrub(serialized: unknown): unknown {
  if (typeof serialized !== 'object' || serialized === null) return serialized;
  const out = serialized as Record<string, unknown>;
  const event = out.event as { id?: unknown; name?: unknown } | undefined;
  if (event && typeof event === 'object') out.event = { id: event.id, name: event.name };
  if (Array.isArray(out.aggregateErrors)) out.aggregateErrors = out.aggregateErrors.map(scrub);
  return out;
}
