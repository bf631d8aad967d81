import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** What requestLog may be given besides the logger. */
interface RequestLogOptions {
  /** A clock in milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

/** The longest path a line quotes; a longer one is cut, so a hostile URL cannot grow the log. */
const MAX_PATH_CHARS = 200;

/**
 * The app's one line per request, written when the answer has gone (or the client left):
 * method, path without its query, status and time in ms, and for a webhook its delivery id
 * and event (`x-github-delivery`, `x-github-event`: no secret, and what an operator looks a
 * failed delivery up by on GitHub). No other header, no cookie or query string at any level: a query carries OAuth codes and states (the board's callback,
 * Probot's setup), headers carry bearer tokens and session cookies (docs/protocol.md §6).
 * Probes (`/health`, a `/metrics` scrape answered 200) are written at debug, the rest at info.
 * Call it first thing for every request.
 */
export function requestLog(
  log: Logger,
  options: RequestLogOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const now = options.now ?? (() => performance.now());
  const http = log.child({ name: 'http' });
  return (req, res) => {
    const started = now();
    res.once('close', () => {
      const method = req.method ?? 'GET';
      const path = pathOf(req.url);
      const status = res.statusCode;
      const probe =
        path === '/health' || (path === '/metrics' && method === 'GET' && status === 200);
      const line: Record<string, unknown> = {
        method,
        path,
        status,
        ms: Math.round((now() - started) * 10) / 10,
      };
      const delivery = shortHeader(req, 'x-github-delivery');
      if (delivery !== undefined) line.delivery = delivery;
      const event = shortHeader(req, 'x-github-event');
      if (event !== undefined) line.event = event;
      if (!res.writableFinished) line.aborted = true;
      http[probe ? 'debug' : 'info'](line, 'request');
    });
  };
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const end = raw.search(/[?#]/);
  const path = end === -1 ? raw : raw.slice(0, end);
  return path.length > MAX_PATH_CHARS ? `${path.slice(0, MAX_PATH_CHARS)}…` : path;
}

/** A header's value when it is short and printable (a hostile one is left out, not quoted). */
function shortHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^[\x21-\x7e]{1,100}$/.test(text) ? text : undefined;
}
