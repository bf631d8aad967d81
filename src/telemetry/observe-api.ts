import type { IncomingMessage, ServerResponse } from 'node:http';
import { routeTemplate } from '../app/metrics.js';
import type { OpsMetrics } from './ops-metrics.js';

/** The claims API's handler: resolves false for a path it does not own. */
type ApiHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** The largest refusal body read for its code; an API error is a few hundred bytes. */
const MAX_ERROR_BODY = 16 * 1024;

/**
 * The claims API counted and timed: `claims_api_requests_total` and
 * `claims_api_request_duration_seconds`, by `surface` (`rest` for HTTP callers, `mcp` for the
 * MCP tools, which call the same handler in process), method and route template; a refusal is
 * counted with the `code` of its `{ error: { code } }` body (docs/protocol.md §8), a success
 * with an empty one.
 */
export function observeApi(
  api: ApiHandler,
  metrics: OpsMetrics,
  surface: 'rest' | 'mcp',
): ApiHandler {
  return async (req, res) => {
    const started = performance.now();
    const labels = { surface, method: req.method ?? 'GET', route: apiRoute(req.url ?? '/') };
    const body = captureErrorBody(res);
    try {
      return await api(req, res);
    } finally {
      metrics.apiSeconds.observe(labels, (performance.now() - started) / 1000);
      const status = res.statusCode;
      metrics.apiRequests.inc({
        ...labels,
        status: String(status),
        code: errorCode(status, body()),
      });
    }
  };
}

/** The route under the API's prefix with owners, names and numbers as placeholders. */
function apiRoute(url: string): string {
  return routeTemplate(url.replace(/^\/api\/claims\/v1(?=[/?]|$)/, '')) || '/';
}

/** Keeps what `res.end` is given once the status says a refusal; returns a reader of it. */
function captureErrorBody(res: ServerResponse): () => string {
  let text = '';
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  (res as { end: unknown }).end = (...args: unknown[]) => {
    const [chunk] = args;
    if (res.statusCode >= 400 && (typeof chunk === 'string' || Buffer.isBuffer(chunk)))
      text = String(chunk).slice(0, MAX_ERROR_BODY);
    return end(...args);
  };
  return () => text;
}

function errorCode(status: number, body: string): string {
  if (status < 400) return '';
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : 'none';
  } catch {
    return 'none';
  }
}
