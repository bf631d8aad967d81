import { createHmac } from 'node:crypto';
import { z } from 'zod';
import {
  eventsUrlSchema,
  gheHostSchema,
  hostSchema,
  publicUrlSchema,
  redisPrefixSchema,
} from './address-schemas.js';
import { privateKeyPathSchema, privateKeySchema } from './private-key-schema.js';
import { RedisSettingsEnv, redisTargetOf } from './redis-settings.js';
import { choiceSetting, documented, durationSetting, integerSetting } from './setting-doc.js';

/** The pino levels Probot accepts for `LOG_LEVEL` (probot/lib/helpers/validate-log-level.js). */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** How the secrets the app checks the length of are best made. */
const MAKE_ONE = 'make one with `openssl rand -hex 32`';

const required = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? `is required: ${what}` : `must be ${what}`;

// A bearer token Prometheus sends in a header: printable ASCII, no spaces.
const metricsTokenSchema = z.string().regex(/^[\x21-\x7e]{32,}$/, {
  error: `must be at least 32 characters without spaces: the bearer token that GET /metrics requires; ${MAKE_ONE}`,
});

/**
 * Every variable the app or Probot reads (docs/protocol.md §7), each with its name, default,
 * range and description written here once: readSettings parses it, docs/configuration.md is
 * generated from it (`npm run docs:settings`). Each is validated on its own, so one bad value
 * does not hide the others; empty strings count as unset (a `FOO=` line in a compose file).
 */
export const SettingsEnv = z.object({
  CLAIMS_STALE_AFTER: durationSetting(
    '10m',
    '720h',
    '6h',
    "the operator's default stale window (docs/protocol.md §3): a claim not renewed for this long is stale",
  ),
  CLAIMS_SWEEP_INTERVAL: durationSetting(
    '1s',
    '24h',
    '60s',
    'how often the sweep looks for claims past their deadline (docs/protocol.md §4)',
  ),
  CLAIMS_RESYNC_INTERVAL: durationSetting(
    '1m',
    '720h',
    '6h',
    'how often every installed repository is resynced (docs/protocol.md §4)',
  ),
  CLAIMS_CONFIG_CACHE: durationSetting(
    '0s',
    '1h',
    '60s',
    "how long a repository's `.github/claims.yml` is cached; `0s` reads it every time",
  ),
  CLAIMS_QUEUE_CONCURRENCY: integerSetting(
    1,
    256,
    8,
    'the number of reconciles run at once',
    'reconciles run at the same time by one replica',
  ),
  CLAIMS_API_RATE_PER_MINUTE: integerSetting(
    1,
    100_000,
    300,
    'the claims API calls one token may make a minute',
    'claims-API calls one token may make a minute, for the whole deployment on Redis (docs/protocol.md §8 "Limits", docs/security.md "Limits and their settings"; a burst of as many, refilled evenly); past it 429 `RATE_LIMITED` with `retry-after`',
  ),
  CLAIMS_API_CONCURRENCY: integerSetting(
    1,
    1_000,
    10,
    'the claims API calls one token may have running at once',
    'claims-API calls one token may have running at once, for the whole deployment on Redis; past it 429 `RATE_LIMITED`, `retry-after: 1`',
  ),
  ...RedisSettingsEnv,
  CLAIMS_REDIS_PREFIX: documented(redisPrefixSchema.prefault('claims'), {
    about:
      'the first part of every Redis key the app writes: the same on every replica of one app; two apps (or test runs) on one Redis database use different ones',
    default: 'claims',
  }),
  CLAIMS_QUEUE_LOCK: durationSetting(
    '1s',
    '10m',
    '30s',
    "how long a reconcile may go unrenewed before it counts as dead and another replica takes it over (BullMQ's lockDuration and stalledInterval; Redis mode); outgoing events use it too, capped at 10 s, so a killed sender's events go out soon",
  ),
  CLAIMS_WRITE_PACING_MS: integerSetting(
    0,
    10_000,
    1000,
    'the milliseconds between two GitHub writes of one installation',
    "milliseconds between two GitHub writes of one installation (GitHub's advice; writes that notify wait three times as long): a test knob for runs against a fake GitHub; against GitHub, leave it unset",
  ),
  APP_ID: documented(
    z
      .string({ error: required("the GitHub App's numeric ID, shown on its settings page") })
      .regex(/^[1-9]\d{0,15}$/, { error: "must be the GitHub App's numeric ID, such as 123456" })
      .transform(Number),
    { about: "required: the GitHub App's numeric ID, shown on its settings page" },
  ),
  PRIVATE_KEY: documented(privateKeySchema.optional(), {
    about:
      "the GitHub App's private key (PEM; `\\n` escapes, base64 or one line, as Probot takes it); this or `PRIVATE_KEY_PATH` is required, and this one wins when both are set",
    secret: true,
  }),
  PRIVATE_KEY_PATH: documented(privateKeyPathSchema.optional(), {
    about: 'the file that holds the private key, read once at start-up',
  }),
  WEBHOOK_SECRET: documented(
    z.string({ error: required("the GitHub App's webhook secret, as set on its settings page") }),
    {
      about: "required: the GitHub App's webhook secret, as set on its settings page",
      secret: true,
    },
  ),
  PORT: integerSetting(
    0,
    65535,
    3000,
    'the port to listen on (0: any free port)',
    'the port to listen on; `0` listens on any free port (tests; it is logged at start-up)',
  ),
  HOST: documented(hostSchema.optional(), {
    about:
      'the address to listen on: an IP address or a name this machine resolves (checked at start-up), no scheme or port; unset lets Node choose, as Probot does; containers need `0.0.0.0`',
  }),
  LOG_LEVEL: choiceSetting(
    LOG_LEVELS,
    'info',
    'the least severe level logged; at `info` each request is one line, `/health` probes and `/metrics` scrapes are at `debug`',
    `must be one of ${LOG_LEVELS.join(', ')}`,
  ),
  LOG_FORMAT: choiceSetting(
    ['json', 'pretty'],
    'json',
    "Probot's setting: `json` (pino, one object a line) or `pretty` (Probot's readable lines)",
  ),
  GHE_HOST: documented(gheHostSchema.optional(), {
    about:
      'a GitHub Enterprise Server host[:port]; the API is then at `<GHE_PROTOCOL>://<GHE_HOST>/api/v3`; unset: github.com',
  }),
  GHE_PROTOCOL: choiceSetting(['http', 'https'], 'https', 'the scheme of `GHE_HOST`'),
  CLAIMS_REDELIVER_INTERVAL: durationSetting(
    '1m',
    '24h',
    '10m',
    'how often webhook deliveries GitHub failed to deliver are redelivered (docs/protocol.md §12; also at start-up; once per cluster)',
  ),
  CLAIMS_REDELIVER_MAX: integerSetting(
    1,
    10_000,
    100,
    'the most deliveries one recovery run redelivers',
    'the most deliveries one recovery run asks GitHub to redeliver; the rest wait for the next run',
  ),
  CLAIMS_EVENTS_URL: documented(eventsUrlSchema.optional(), {
    about:
      '`https://…`: where a signed JSON event is POSTed for each claim change (docs/protocol.md §13); unset: none',
    url: true,
  }),
  CLAIMS_EVENTS_SECRET: documented(
    z
      .string()
      .min(32, {
        error: `must be at least 32 characters of random text, shared with the receiver; ${MAKE_ONE}`,
      })
      .optional(),
    {
      about:
        'required with `CLAIMS_EVENTS_URL`, 32+ characters (`openssl rand -hex 32`): the HMAC key of `X-Claims-Signature-256`; set without the URL it stops start-up',
      secret: true,
    },
  ),
  CLAIMS_EVENTS_CONCURRENCY: integerSetting(
    1,
    64,
    4,
    'the number of outgoing events sent at once',
    'outgoing events each process sends at once (both modes), so a receiver that never answers holds at most this many connections',
  ),
  CLAIMS_EVENTS_MAX_PENDING: integerSetting(
    1,
    1_000_000,
    10_000,
    'the most outgoing events kept in memory for their receiver',
    'embedded: the most outgoing events kept in memory, sending or waiting for a retry (about a kilobyte each, so some 10 MB when full: a receiver down for its 24 hours rarely misses more); one past it is dropped, logged (`event`, `type`, `reason: "full"`) and counted in `claims_events_dropped_total`. With Redis they wait on Redis, unbounded here',
  ),
  WEBHOOK_PROXY_URL: documented(
    z
      .url({
        protocol: /^https?$/,
        error: 'must be the URL of a webhook proxy channel, such as https://smee.io/AbCd1234',
      })
      .optional(),
    {
      about:
        "a smee.io channel that forwards webhooks to this server, for development without a public URL (Probot's Server connects to it); anyone with the channel URL can read the webhooks",
      secret: true,
    },
  ),
  GITHUB_CLIENT_ID: documented(
    z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, {
        error:
          "must be the GitHub App's client ID, shown on its settings page, such as Iv1.0123456789abcdef",
      })
      .optional(),
    {
      about:
        "the GitHub App's OAuth client ID; with `GITHUB_CLIENT_SECRET` it turns on the claims board's sign-in (docs/protocol.md §14); unset, the board is off (404)",
    },
  ),
  GITHUB_CLIENT_SECRET: documented(z.string().optional(), {
    about: "a client secret of the GitHub App's OAuth credentials, with `GITHUB_CLIENT_ID`",
    secret: true,
  }),
  CLAIMS_PUBLIC_URL: documented(publicUrlSchema.optional(), {
    about:
      "the app's address as browsers reach it (behind a proxy): `http(s)://host[:port][/prefix]`, no user:password, query, fragment or spaces (normalised); the board's callback is `<it>/claims/callback`, and its cookies are `Secure` when it is https; unset: the request's host",
    url: true,
  }),
  CLAIMS_TRUST_PROXY: choiceSetting(
    ['true', 'false'],
    'false',
    "`true` only behind a proxy that sets `X-Forwarded-Proto` itself: without `CLAIMS_PUBLIC_URL`, the app's links (the board's, the MCP metadata's) then take https from it; otherwise they are `http://` on the request's `Host`, which must be a host name (else the MCP metadata is a 400 and the challenge names none)",
    'must be true or false: true only when a proxy in front of the app sets X-Forwarded-Proto and drops any a client sent',
  ),
  CLAIMS_SHUTDOWN_TIMEOUT: durationSetting(
    '1s',
    '10m',
    '20s',
    "after SIGTERM or SIGINT, how long the app finishes its work before it exits anyway (exit 1 then), Redis up or not: keep it below the orchestrator's grace period (Kubernetes: 30 s)",
  ),
  CLAIMS_REDELIVER_DELAY: durationSetting(
    '0s',
    '10m',
    '15s',
    "how long after the app is ready (`/health` 200) it first asks GitHub for redeliveries, so a balancer's readiness probe has sent it traffic first; failed redeliveries are looked at again 30, 60 and 120 s later (docs/protocol.md §12)",
  ),
  CLAIMS_SESSION_SECRET: documented(
    z
      .string()
      .min(32, {
        error: 'must be at least 32 characters of random text (unset: derived from WEBHOOK_SECRET)',
      })
      .optional(),
    {
      about:
        'the key board session cookies are sealed with (32+ characters); unset, derived from `WEBHOOK_SECRET`, the same on every replica',
      secret: true,
    },
  ),
  CLAIMS_METRICS_TOKEN: documented(metricsTokenSchema.optional(), {
    about:
      '32+ printable characters: `GET /metrics` then needs `Authorization: Bearer <it>`, else 401; unset, /metrics is open to whoever reaches the port (with `NODE_ENV=production`, start-up logs a warning)',
    secret: true,
  }),
});

/** The variables' values, each parsed on its own. */
type SettingsValues = z.output<typeof SettingsEnv>;

/**
 * The settings the app runs with, derived from the variables (durations in milliseconds).
 * `privateKey`, `webhookSecret` and `redis` (its URL and passwords) are secrets: log
 * settingsForLog() instead. The names of the variables say what each means
 * (docs/configuration.md).
 */
export const Settings = SettingsEnv.transform((v: SettingsValues, ctx) => {
  const redis = redisTargetOf(v);
  for (const problem of redis.problems) {
    // `together`: a problem of two values at once, so neither is quoted (see readSettings).
    ctx.addIssue({
      code: 'custom',
      path: [problem.variable],
      message: problem.message,
      params: { together: true },
    });
  }
  return {
    staleAfterMs: v.CLAIMS_STALE_AFTER,
    sweepIntervalMs: v.CLAIMS_SWEEP_INTERVAL,
    resyncIntervalMs: v.CLAIMS_RESYNC_INTERVAL,
    configCacheMs: v.CLAIMS_CONFIG_CACHE,
    queueConcurrency: v.CLAIMS_QUEUE_CONCURRENCY,
    apiRatePerMinute: v.CLAIMS_API_RATE_PER_MINUTE,
    apiConcurrency: v.CLAIMS_API_CONCURRENCY,
    /** Undefined runs in-process (docs/protocol.md §7); else the Redis shared by many replicas. */
    redis: redis.target,
    redisPrefix: v.CLAIMS_REDIS_PREFIX,
    queueLockMs: v.CLAIMS_QUEUE_LOCK,
    writePacingMs: v.CLAIMS_WRITE_PACING_MS,
    appId: v.APP_ID,
    // PRIVATE_KEY wins, as in Probot; readSettings refuses a start with neither.
    privateKey: v.PRIVATE_KEY ?? v.PRIVATE_KEY_PATH ?? '',
    webhookSecret: v.WEBHOOK_SECRET,
    port: v.PORT,
    host: v.HOST,
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    gheHost: v.GHE_HOST,
    gheProtocol: v.GHE_PROTOCOL,
    /** The REST API base URL for `GHE_HOST`, built as Probot does (create-probot.js). */
    githubBaseUrl: v.GHE_HOST ? `${v.GHE_PROTOCOL}://${v.GHE_HOST}/api/v3` : undefined,
    redeliverIntervalMs: v.CLAIMS_REDELIVER_INTERVAL,
    redeliverMax: v.CLAIMS_REDELIVER_MAX,
    eventsUrl: v.CLAIMS_EVENTS_URL,
    eventsSecret: v.CLAIMS_EVENTS_SECRET,
    eventsConcurrency: v.CLAIMS_EVENTS_CONCURRENCY,
    eventsMaxPending: v.CLAIMS_EVENTS_MAX_PENDING,
    webhookProxyUrl: v.WEBHOOK_PROXY_URL,
    boardOAuth:
      v.GITHUB_CLIENT_ID !== undefined && v.GITHUB_CLIENT_SECRET !== undefined
        ? { clientId: v.GITHUB_CLIENT_ID, clientSecret: v.GITHUB_CLIENT_SECRET }
        : undefined,
    publicUrl: v.CLAIMS_PUBLIC_URL,
    trustProxy: v.CLAIMS_TRUST_PROXY === 'true',
    shutdownTimeoutMs: v.CLAIMS_SHUTDOWN_TIMEOUT,
    redeliverDelayMs: v.CLAIMS_REDELIVER_DELAY,
    // Derived with a purpose label, so the cookie key never equals the webhook secret itself.
    sessionSecret:
      v.CLAIMS_SESSION_SECRET ??
      createHmac('sha256', v.WEBHOOK_SECRET).update('claim-warden board session').digest('hex'),
    metricsToken: v.CLAIMS_METRICS_TOKEN,
  };
});

/** The operator's settings, read once at start-up by readSettings (docs/protocol.md §7). */
export type Settings = Readonly<z.output<typeof Settings>>;

/** The value of the variable `name` when it is unset, read from its schema. */
export function settingDefault<K extends keyof typeof SettingsEnv.shape>(
  name: K,
): z.output<(typeof SettingsEnv.shape)[K]> {
  // Indexing the shape by a generic name loses the pairing of name and type; it holds.
  return SettingsEnv.shape[name].parse(undefined) as z.output<(typeof SettingsEnv.shape)[K]>;
}
