import { API_PREFIX } from '../api/claims-api.js';
import type { HttpRoutes, RouteHandler } from '../http-routes.js';
import { RESOURCE_METADATA_PATH } from '../mcp/protected-resource.js';
import { MCP_PATH } from '../mcp/remote-mcp.js';

/** The room that serves a route. `webhooks` is Probot's own middleware, behind the webhook door. */
type RouteRoom =
  | 'webhooks'
  | 'claims-api'
  | 'mcp'
  | 'resource-metadata'
  | 'board'
  | 'health'
  | 'metrics';

/**
 * What a route answers before start-up has reached GitHub: `itself` (its room answers, saying
 * it is starting where that matters), `starting-api` or `starting-page` (503 with
 * `retry-after`, startingAnswer), or `probot` (not served yet: Probot's 404).
 */
type WhileStarting = 'itself' | 'starting-api' | 'starting-page' | 'probot';

/** One route of the app's server. */
export interface RouteEntry {
  /** A path ending in `/` also serves everything under it (HttpRoutes). */
  readonly path: string;
  readonly methods: readonly string[];
  readonly serve: RouteRoom;
  readonly whileStarting: WhileStarting;
}

/**
 * Every route of the app's server, in one place (docs/security.md's table says who may call
 * each): the server mounts them from here, the start-up 503s are read from here, and a test
 * holds this table, the catalogue's API routes and docs/security.md to one another.
 */
export const ROUTE_TABLE: readonly RouteEntry[] = [
  { path: '/api/github/webhooks', methods: ['POST'], serve: 'webhooks', whileStarting: 'itself' },
  {
    path: `${API_PREFIX}/`,
    methods: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'],
    serve: 'claims-api',
    whileStarting: 'starting-api',
  },
  {
    path: MCP_PATH,
    methods: ['POST', 'GET', 'DELETE'],
    serve: 'mcp',
    whileStarting: 'starting-api',
  },
  {
    path: RESOURCE_METADATA_PATH,
    methods: ['GET'],
    serve: 'resource-metadata',
    whileStarting: 'probot',
  },
  {
    path: `${RESOURCE_METADATA_PATH}${MCP_PATH}`,
    methods: ['GET'],
    serve: 'resource-metadata',
    whileStarting: 'probot',
  },
  { path: '/claims', methods: ['GET', 'POST'], serve: 'board', whileStarting: 'starting-page' },
  { path: '/claims/', methods: ['GET', 'POST'], serve: 'board', whileStarting: 'starting-page' },
  { path: '/health', methods: ['GET'], serve: 'health', whileStarting: 'itself' },
  { path: '/metrics', methods: ['GET'], serve: 'metrics', whileStarting: 'itself' },
];

/**
 * Mounts the table's routes of the rooms `rooms` names, each method of each: the rooms come up
 * at different moments (health and metrics before GitHub is reached, the board after), so each
 * mounts its own, all from the one table.
 */
export function mountRoutes(
  http: HttpRoutes,
  rooms: Partial<Record<RouteRoom, RouteHandler>>,
): void {
  for (const entry of ROUTE_TABLE) {
    const handler = rooms[entry.serve];
    if (!handler) continue;
    for (const method of entry.methods) http.route(method, entry.path, handler);
  }
}
