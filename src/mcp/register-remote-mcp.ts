import type { Logger } from 'pino';
import type { CallerLimits } from '../api/caller/caller-limits.js';
import { packageVersion } from '../client/cli/package-version.js';
import type { HttpRoutes } from '../http-routes.js';
import type { BaseUrlSettings } from '../request-base-url.js';
import { RedisStore } from '../store/redis-store.js';
import type { Store } from '../store/store.js';
import type { ClaimsApiHandler } from './call-claims-api.js';
import { memoryMcpSessions } from './mcp-sessions.js';
import { protectedResource, RESOURCE_METADATA_PATH } from './protected-resource.js';
import { redisMcpSessions } from './redis-mcp-sessions.js';
import { MCP_PATH, type RemoteMcpLimits, remoteMcp } from './remote-mcp.js';

/** What the app hands the remote MCP server. */
interface RemoteMcpWiring {
  /** The claims API's handler, the one `/api/claims/v1/` serves (same caches, same limits). */
  readonly api: ClaimsApiHandler;
  /** The claims API's per-caller limits: an MCP request counts once against them. */
  readonly callerLimits: CallerLimits;
  readonly store: Store;
  readonly log: Logger;
  /** GitHub's REST API root: its OAuth server is the one the metadata names. */
  readonly githubApiUrl: string;
  readonly settings: BaseUrlSettings;
  readonly limits?: Partial<RemoteMcpLimits>;
}

/**
 * Serves the remote MCP server on the app's routes: `/mcp` (POST, GET, DELETE) and the RFC 9728
 * metadata at `/.well-known/oauth-protected-resource` (and its `/mcp` form). Sessions live
 * beside the store: in Redis when the app runs on Redis, so every replica sees them.
 */
export function registerRemoteMcp(http: HttpRoutes, wiring: RemoteMcpWiring): void {
  const sessions =
    wiring.store instanceof RedisStore
      ? redisMcpSessions({
          redis: () => (wiring.store as RedisStore).connection(),
          prefix: wiring.store.prefix,
        })
      : memoryMcpSessions();
  const mcp = remoteMcp({
    api: wiring.api,
    callerLimits: wiring.callerLimits,
    sessions,
    log: wiring.log,
    publicUrl: wiring.settings.publicUrl,
    trustProxy: wiring.settings.trustProxy,
    version: packageVersion(),
    ...(wiring.limits ? { limits: wiring.limits } : {}),
  });
  for (const method of ['POST', 'GET', 'DELETE']) http.route(method, MCP_PATH, mcp);
  const metadata = protectedResource(wiring.settings, wiring.githubApiUrl);
  http.route('GET', RESOURCE_METADATA_PATH, metadata);
  http.route('GET', `${RESOURCE_METADATA_PATH}${MCP_PATH}`, metadata);
}
