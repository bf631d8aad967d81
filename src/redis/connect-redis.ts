import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisTarget } from '../config/redis-target.js';

/** A connection to the app's Redis: one server (URL, Sentinel's primary) or a Cluster. */
export type RedisClient = Redis | Cluster;

/** Where to connect: what the settings named, or a plain URL (tests, tools). */
export type RedisAddress = RedisTarget | string;

/**
 * What a connection is for. The two want opposite things from an outage (docs/replicas.md):
 * - `fail-fast`: the webhook path (the store, the queue's producer side), where an answer must
 *   come within GitHub's 10 seconds;
 * - `wait-out`: BullMQ's workers and blocking reads, which must ride an outage out.
 */
type ConnectionSide = 'fail-fast' | 'wait-out';

/**
 * The fail-fast options:
 * - `enableOfflineQueue: false`: while disconnected, a command fails at once instead of
 *   queueing, so nothing is written later, after the webhook was answered with an error.
 * - `autoResendUnfulfilledCommands: false`: a command in flight when the connection drops
 *   fails; it is not sent again on reconnect (same reason).
 * - `commandTimeout`: Redis connected but not answering (paused, a dead proxy) fails too.
 * ioredis keeps reconnecting (its default retryStrategy), so the app recovers by itself.
 */
const FAIL_FAST_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 2000,
};

/** BullMQ's workers need `maxRetriesPerRequest: null`: a blocking read must not give up. */
const WAIT_OUT_OPTIONS: RedisOptions = { maxRetriesPerRequest: null };

/**
 * A demoted primary answers writes with READONLY (a Sentinel failover, a client that reached
 * the old primary): reconnect, which asks the Sentinels (or the cluster's slots) again. A
 * fail-fast command fails (2 would resend it after the webhook was answered); a worker's is
 * resent.
 */
function reconnectOnReadonly(side: ConnectionSide) {
  return (error: Error): boolean | 2 =>
    error.message.startsWith('READONLY') ? (side === 'wait-out' ? 2 : true) : false;
}

/** The options every connection of `side` to `target` shares, credentials and TLS included. */
function optionsFor(
  target: RedisAddress,
  side: ConnectionSide,
  extra: RedisOptions = {},
): RedisOptions {
  const access =
    typeof target === 'string'
      ? {}
      : {
          ...(target.username !== undefined ? { username: target.username } : {}),
          ...(target.password !== undefined ? { password: target.password } : {}),
          ...(target.tls ? { tls: target.tls.ca ? { ca: [target.tls.ca] } : {} } : {}),
        };
  return {
    ...(side === 'fail-fast' ? FAIL_FAST_OPTIONS : WAIT_OUT_OPTIONS),
    reconnectOnError: reconnectOnReadonly(side),
    ...access,
    ...extra,
  };
}

/**
 * The one place a connection to the app's Redis is made (the store, the per-issue lock, the
 * work queue's and the events' BullMQ sides, the MCP and board sessions all come through
 * here), so every form of `CLAIMS_REDIS_*` reaches every part alike.
 */
export function connectRedis(
  target: RedisAddress,
  side: ConnectionSide,
  extra: RedisOptions = {},
): RedisClient {
  const options = optionsFor(target, side, extra);
  if (typeof target === 'string') return new Redis(target, options);
  if (target.form === 'url') return new Redis(target.url, options);
  if (target.form === 'sentinel') {
    return new Redis({
      ...options,
      sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
      name: target.name,
      role: 'master',
      ...(target.sentinelPassword !== undefined
        ? { sentinelPassword: target.sentinelPassword }
        : {}),
      ...(options.tls ? { enableTLSForSentinelMode: true, sentinelTLS: options.tls } : {}),
      // No failoverDetector: its connections to the Sentinels outlive quit() (ioredis 6), and
      // a dead primary's socket closes anyway; a demoted live one answers READONLY (above).
    });
  }
  const { enableOfflineQueue, retryStrategy: _retry, ...redisOptions } = options;
  return new Cluster(
    target.nodes.map(({ host, port }) => ({ host, port })),
    {
      redisOptions,
      enableOfflineQueue: enableOfflineQueue ?? true,
      // Writes only: a replica's read may lag its primary (a half-read state).
      scaleReads: 'master',
      // A shard's failover takes its time; redirections and refreshes follow it.
      retryDelayOnFailover: 200,
      retryDelayOnClusterDown: 200,
      slotsRefreshTimeout: 2000,
    },
  );
}

/**
 * A new connection like `client` (same servers, credentials and TLS) for another side, with
 * its own command timeout if given.
 */
export function duplicateFor(
  client: RedisClient,
  side: ConnectionSide,
  commandTimeout?: number,
): RedisClient {
  const sideOptions = {
    ...(side === 'fail-fast' ? FAIL_FAST_OPTIONS : WAIT_OUT_OPTIONS),
    reconnectOnError: reconnectOnReadonly(side),
    ...(commandTimeout !== undefined ? { commandTimeout } : {}),
  };
  if (client instanceof Cluster) {
    const { enableOfflineQueue, ...redisOptions } = sideOptions;
    return client.duplicate(undefined, {
      redisOptions: { ...client.options.redisOptions, ...redisOptions },
      enableOfflineQueue: enableOfflineQueue ?? true,
    });
  }
  return client.duplicate(sideOptions);
}

/** Closes a connection (QUIT, so replies in flight arrive); one Redis does not answer is dropped. */
export async function quitRedis(client: RedisClient): Promise<void> {
  if (client.status === 'end') return;
  if (client.status !== 'ready') return client.disconnect();
  await client.quit().catch(() => client.disconnect());
}
