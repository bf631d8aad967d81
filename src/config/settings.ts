import type { RedisTarget } from './redis-target.js';

/** The pino levels Probot accepts for `LOG_LEVEL` (probot/lib/helpers/validate-log-level.js). */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** A `LOG_LEVEL` value. */
type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The operator's settings, read once at start-up by readSettings (docs/protocol.md §7). Durations are in
 * milliseconds. `privateKey`, `webhookSecret` and `redis` (its URL and passwords) are secrets: log settingsForLog()
 * instead of this object.
 */
export interface Settings {
  /** `CLAIMS_STALE_AFTER`: the operator's default stale window (docs/protocol.md §3). */
  readonly staleAfterMs: number;
  /** `CLAIMS_SWEEP_INTERVAL`: how often the sweep looks for claims past their deadline (docs/protocol.md §4). */
  readonly sweepIntervalMs: number;
  /** `CLAIMS_RESYNC_INTERVAL`: how often every installed repository is resynced (docs/protocol.md §4). */
  readonly resyncIntervalMs: number;
  /** `CLAIMS_CONFIG_CACHE`: how long a repository's claims.yml is cached; 0 reads it every time. */
  readonly configCacheMs: number;
  /** `CLAIMS_QUEUE_CONCURRENCY`: reconciles run at the same time by this process. */
  readonly queueConcurrency: number;
  /**
   * `CLAIMS_API_RATE_PER_MINUTE`: claims API calls one token may make a minute, per replica
   * (docs/protocol.md §8 "Limits"); past it, 429 RATE_LIMITED with `retry-after`.
   */
  readonly apiRatePerMinute: number;
  /** `CLAIMS_API_CONCURRENCY`: claims API calls one token may have running at once, per replica. */
  readonly apiConcurrency: number;
  /**
   * The Redis shared by many replicas (`CLAIMS_REDIS_URL`, `CLAIMS_REDIS_SENTINELS` or
   * `CLAIMS_REDIS_CLUSTER`, docs/replicas.md); undefined runs in-process (docs/protocol.md §7).
   */
  readonly redis: RedisTarget | undefined;
  /**
   * `CLAIMS_REDIS_PREFIX`: the first part of every Redis key the app writes (default `claims`).
   * Every replica of one app uses the same one; two apps (or test runs) on one Redis database
   * use different ones.
   */
  readonly redisPrefix: string;
  /**
   * `CLAIMS_QUEUE_LOCK`: how long a reconcile may go unrenewed before it counts as dead and
   * another replica takes it over (BullMQ's lockDuration and stalledInterval; Redis mode).
   * Outgoing events use it too, capped at 10 s, so a killed sender's events go out soon.
   */
  readonly queueLockMs: number;
  /**
   * `CLAIMS_WRITE_PACING_MS`: milliseconds between two GitHub writes of one installation
   * (default 1000, GitHub's advice; writes that notify wait three times as long). A test knob
   * for runs against a fake GitHub: against GitHub, leave it unset.
   */
  readonly writePacingMs: number;
  /** `APP_ID`. */
  readonly appId: number;
  /** The PEM key from `PRIVATE_KEY` (escapes undone, as Probot does) or `PRIVATE_KEY_PATH`. */
  readonly privateKey: string;
  /** `WEBHOOK_SECRET`. */
  readonly webhookSecret: string;
  /** `PORT`; 0 listens on any free port (tests; the port is logged and returned by main). */
  readonly port: number;
  /**
   * `HOST`: the address to listen on, an IP address or a host name (checked to resolve by
   * checkListenHost at start-up); undefined lets Node choose, as Probot does.
   */
  readonly host: string | undefined;
  /** `LOG_LEVEL`. */
  readonly logLevel: LogLevel;
  /** `LOG_FORMAT` (Probot's setting): `json` (default) or `pretty`, Probot's formatting. */
  readonly logFormat: 'json' | 'pretty';
  /** `GHE_HOST`: a GitHub Enterprise Server host[:port], undefined for github.com. */
  readonly gheHost: string | undefined;
  /** `GHE_PROTOCOL` (default https; used only with `GHE_HOST`). */
  readonly gheProtocol: 'http' | 'https';
  /** The REST API base URL for `GHE_HOST`, built as Probot does (create-probot.js); else undefined. */
  readonly githubBaseUrl: string | undefined;
  /** `CLAIMS_REDELIVER_INTERVAL`: how often failed webhook deliveries are redelivered (docs/protocol.md §12). */
  readonly redeliverIntervalMs: number;
  /** `CLAIMS_REDELIVER_MAX`: the most deliveries one recovery run asks GitHub to redeliver. */
  readonly redeliverMax: number;
  /** `CLAIMS_EVENTS_URL`: where outgoing claim events are POSTed (docs/protocol.md §13); undefined: none. */
  readonly eventsUrl: string | undefined;
  /** `CLAIMS_EVENTS_SECRET`: signs outgoing events (32+ characters); a secret, never logged. */
  readonly eventsSecret: string | undefined;
  /**
   * `CLAIMS_EVENTS_CONCURRENCY`: outgoing events this process sends at once, so a receiver
   * that never answers holds at most this many connections (both modes; default 4).
   */
  readonly eventsConcurrency: number;
  /**
   * `CLAIMS_EVENTS_MAX_PENDING`: embedded, the most outgoing events kept in memory, sending or
   * waiting for a retry; one past it is dropped, logged and counted (default 10000). With
   * Redis they wait on Redis, unbounded here.
   */
  readonly eventsMaxPending: number;
  /**
   * `WEBHOOK_PROXY_URL`: a smee.io channel that forwards webhooks to this server, for
   * development without a public URL (Probot's Server connects to it). A secret: anyone with
   * the channel URL can read the webhooks.
   */
  readonly webhookProxyUrl: string | undefined;
  /**
   * `GITHUB_CLIENT_ID` and `GITHUB_CLIENT_SECRET`: the GitHub App's OAuth credentials for the
   * claims board's sign-in (docs/protocol.md §14); undefined leaves the board off (404).
   */
  readonly boardOAuth: { readonly clientId: string; readonly clientSecret: string } | undefined;
  /**
   * `CLAIMS_PUBLIC_URL`: the app's address as browsers reach it, if set: normalised (lower-case
   * scheme and host, no default port, no trailing slash), never with credentials or a query.
   */
  readonly publicUrl: string | undefined;
  /**
   * `CLAIMS_TRUST_PROXY`: without `publicUrl`, whether the app's own links may take their
   * scheme from `X-Forwarded-Proto` (default false: a client could send any). Set it only
   * behind a proxy that sets the header itself.
   */
  readonly trustProxy: boolean;
  /**
   * `CLAIMS_SHUTDOWN_TIMEOUT`: after SIGTERM, how long the app waits for work in flight
   * before it exits anyway (default 20 s, inside Kubernetes' 30 s grace), Redis up or not.
   */
  readonly shutdownTimeoutMs: number;
  /**
   * `CLAIMS_REDELIVER_DELAY`: how long after the app is ready (`/health` 200) it first asks
   * GitHub for redeliveries (default 15 s), so a balancer's readiness probe has sent it
   * traffic before GitHub redelivers (docs/protocol.md §12).
   */
  readonly redeliverDelayMs: number;
  /**
   * `CLAIMS_SESSION_SECRET`, else derived from `WEBHOOK_SECRET`: the key board session
   * cookies are sealed with. Every replica derives the same one.
   */
  readonly sessionSecret: string;
  /**
   * `CLAIMS_METRICS_TOKEN`: when set, `GET /metrics` needs `Authorization: Bearer <it>`
   * (else 401); unset, /metrics is open to whoever reaches the port. A secret, never logged.
   */
  readonly metricsToken: string | undefined;
}
