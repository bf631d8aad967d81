import type { HttpRoutes, RouteHandler } from '../http-routes.js';
import type { WorkQueue } from '../queue/queue.js';
import type { Store } from '../store/store.js';
import { answers } from './answers.js';
import { bearerAllowed } from './bearer-allowed.js';
import type { Metrics } from './metrics.js';
import { mountRoutes } from './route-table.js';

/** What `/health` and `/metrics` read. */
interface HttpDeps {
  readonly store: Store;
  readonly queue: WorkQueue;
  readonly metrics: Metrics;
  /** `CLAIMS_METRICS_TOKEN`: when set, `/metrics` answers only `Authorization: Bearer <it>`. */
  readonly metricsToken?: string | undefined;
  /**
   * Start-up has not reached GitHub yet: `/health` answers 503 `"starting"` whatever the
   * store says, and `store` in its body still says whether the store answers.
   */
  readonly starting?: boolean;
}

/**
 * The routes with `GET /health` (open: orchestrators and load balancers probe it) and
 * `GET /metrics` (behind `metricsToken` when set) registered.
 */
export function createHttpRoutes(deps: HttpDeps): HttpRoutes {
  const metricsAllowed = bearerAllowed(deps.metricsToken);
  const exact = new Map<string, RouteHandler>();
  const prefixes: Array<{ method: string; path: string; handler: RouteHandler }> = [];
  const routes: HttpRoutes = {
    route(method, path, handler) {
      const verb = method.toUpperCase();
      if (path.endsWith('/')) {
        prefixes.push({ method: verb, path, handler });
        prefixes.sort((a, b) => b.path.length - a.path.length);
      } else {
        exact.set(`${verb} ${path}`, handler);
      }
    },
    async handle(req, res) {
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      const handler =
        exact.get(`${method} ${path}`) ??
        prefixes.find((p) => p.method === method && path.startsWith(p.path))?.handler;
      if (!handler) return false;
      await handler(req, res);
      return true;
    },
  };
  const health: RouteHandler = async (_req, res) => {
    // The queue is asked too: in Redis mode it has connections of its own, and a webhook
    // needs both (depth is answered by the queue's webhook-side connection). `store` in the
    // body stands for the shared state: both.
    const [store, queue] = await Promise.all([
      deps.store.ping().catch(() => false),
      answers(deps.queue.depth(), 2000),
    ]);
    const ok = store && queue;
    const status = deps.starting ? 'starting' : ok ? 'ok' : 'unavailable';
    res.writeHead(status === 'ok' ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status, store: ok }));
  };
  const metrics: RouteHandler = async (req, res) => {
    if (!metricsAllowed(req)) {
      res.writeHead(401, {
        'content-type': 'text/plain; charset=utf-8',
        'www-authenticate': 'Bearer realm="metrics"',
      });
      res.end('GET /metrics needs Authorization: Bearer <CLAIMS_METRICS_TOKEN>\n');
      return;
    }
    res.writeHead(200, { 'content-type': deps.metrics.registry.contentType });
    res.end(await deps.metrics.registry.metrics());
  };
  mountRoutes(routes, { health, metrics });
  return routes;
}
