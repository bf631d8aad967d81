import type { IncomingMessage, ServerResponse } from 'node:http';
import { OPERATIONS } from '../operations/catalogue.js';
import { fillRoute, type RouteParams } from '../operations/fill-route.js';
import type { OperationName } from '../operations/operation.js';
import { routeTemplate } from './route-template.js';

/** What observeRuns wraps: the claims API's `run` (telemetry does not import the API). */
interface OperationRuns {
  run(
    name: OperationName,
    caller: unknown,
    request: RouteParams,
  ): Promise<{ readonly status: number; readonly body: unknown }>;
}

import { inSpan, SpanKind } from '../tracing/tracing.js';
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
      // The request's server span: a trace's root, or the caller's `traceparent` its parent.
      const attributes = { 'claims.surface': surface, 'url.template': labels.route };
      const options = { kind: SpanKind.SERVER, attributes, headers: req.headers };
      return await inSpan(`claims API ${labels.method} ${labels.route}`, options, (span) =>
        api(req, res).finally(() =>
          span?.setAttribute('http.response.status_code', res.statusCode),
        ),
      );
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

/**
 * The remote MCP server's HTTP requests as server spans (`MCP POST /mcp`): a caller's
 * `traceparent` their parent, and the span of each tool call a request carries (observeRuns)
 * inside, so a tool call joins its caller's trace as a REST call does.
 */
export function traceMcpRequests(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return (req, res) => {
    const method = req.method ?? 'POST';
    const options = {
      kind: SpanKind.SERVER,
      attributes: { 'claims.surface': 'mcp' },
      headers: req.headers,
    };
    return inSpan(`MCP ${method} /mcp`, options, async (span) => {
      await handler(req, res);
      span?.setAttribute('http.response.status_code', res.statusCode);
    });
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

/**
 * The claims API's operations as the MCP tools run them (in process, one run per tool call),
 * counted and timed as `observeApi` does for REST, with `surface="mcp"` and the operation's
 * route as the REST call of the same operation is labelled.
 */
export function observeRuns<Api extends OperationRuns>(api: Api, metrics: OpsMetrics): Api {
  return {
    ...api,
    async run(name: OperationName, caller: unknown, request: RouteParams) {
      const started = performance.now();
      const operation = OPERATIONS.find((o) => o.name === name);
      const route = operation ? routeTemplate(fillRoute(operation.route, request)) : name;
      const labels = { surface: 'mcp', method: operation?.method ?? 'POST', route };
      let status = 500;
      let code = 'none';
      try {
        // A span per tool call, named by the tool as the caller knows it; its GitHub requests inside.
        const tool = operation?.tool ?? name;
        const attributes = { 'claims.surface': 'mcp', 'claims.tool': tool, 'url.template': route };
        const reply = await inSpan(`MCP tool ${tool}`, { attributes }, async (span) => {
          const answer = await api.run(name, caller, request);
          span?.setAttribute('http.response.status_code', answer.status);
          return answer;
        });
        status = reply.status;
        code = status < 400 ? '' : errorCode(status, JSON.stringify(reply.body ?? null));
        return reply;
      } finally {
        metrics.apiSeconds.observe(labels, (performance.now() - started) / 1000);
        metrics.apiRequests.inc({ ...labels, status: String(status), code });
      }
    },
  };
}
