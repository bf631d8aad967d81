import type { Logger } from 'pino';
import type { CallerLimits } from '../api/caller/caller-limits.js';
import type { ClaimsApi } from '../api/claims-api.js';
import { packageVersion } from '../client/cli/package-version.js';
import type { RouteHandler } from '../http-routes.js';
import type { BaseUrlSettings } from '../request-base-url.js';
import { RedisStore } from '../store/redis-store.js';
import type { Store } from '../store/store.js';
import { memoryMcpSessions } from './mcp-sessions.js';
import { protectedResource } from './protected-resource.js';
import { redisMcpSessions } from './redis-mcp-sessions.js';
import { type RemoteMcpLimits, remoteMcp } from './remote-mcp.js';

/** What the app hands the remote MCP server. */
interface RemoteMcpWiring {
  /** The claims API `/api/claims/v1/` serves (same caches, same limits). */
  readonly api: ClaimsApi;
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
 * The remote MCP server's handlers: `mcp` for `/mcp` and `metadata` for the RFC 9728 document
 * at `/.well-known/oauth-protected-resource` (and its `/mcp` form); the app mounts them from
 * its route table. Sessions live beside the store: in Redis when the app runs on Redis, so
 * every replica sees them.
 */
export function remoteMcpRoutes(wiring: RemoteMcpWiring): {
  readonly mcp: RouteHandler;
  readonly metadata: RouteHandler;
} {
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
  return { mcp, metadata: protectedResource(wiring.settings, wiring.githubApiUrl) };
}
