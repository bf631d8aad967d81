import { z } from 'zod';
import {
  eventsUrlSchema,
  gheHostSchema,
  hostSchema,
  publicUrlSchema,
  redisPrefixSchema,
} from './address-schemas.js';
import { durationSchema, parseDuration } from './duration.js';
import { privateKeyPathSchema, privateKeySchema } from './private-key-schema.js';
import { RedisSettingsEnv } from './redis-settings.js';
import { LOG_LEVELS } from './settings.js';

/** How the secrets the app checks the length of are best made. */
const MAKE_ONE = 'make one with `openssl rand -hex 32`';

const required = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? `is required: ${what}` : `must be ${what}`;

/** A whole number in `[min, max]`, written in plain digits (no `1e3`, no `0x10`, no sign). */
function integerSchema(min: number, max: number, what: string) {
  const message = `must be ${what}, a whole number between ${min} and ${max}`;
  return z
    .string({ error: message })
    .regex(/^\d{1,9}$/, { error: message })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: message });
}

// A bearer token Prometheus sends in a header: printable ASCII, no spaces.
const metricsTokenSchema = z.string().regex(/^[\x21-\x7e]{32,}$/, {
  error: `must be at least 32 characters without spaces: the bearer token that GET /metrics requires; ${MAKE_ONE}`,
});

/** The environment as readSettings reads it (docs/protocol.md §7). */
// Every variable the app or Probot reads, each validated on its own so that one bad value does
// not hide the others. Empty strings count as unset (a `FOO=` line in a compose file).
export const SettingsEnv = z.object({
  CLAIMS_STALE_AFTER: durationSchema('10m', '720h', '6h').default(parseDuration('6h')),
  CLAIMS_SWEEP_INTERVAL: durationSchema('1s', '24h', '60s').default(parseDuration('60s')),
  CLAIMS_RESYNC_INTERVAL: durationSchema('1m', '720h', '6h').default(parseDuration('6h')),
  CLAIMS_CONFIG_CACHE: durationSchema('0s', '1h', '60s').default(parseDuration('60s')),
  CLAIMS_QUEUE_CONCURRENCY: integerSchema(1, 256, 'the number of reconciles run at once').default(
    8,
  ),
  CLAIMS_API_RATE_PER_MINUTE: integerSchema(
    1,
    100_000,
    'the claims API calls one token may make a minute',
  ).default(300),
  CLAIMS_API_CONCURRENCY: integerSchema(
    1,
    1_000,
    'the claims API calls one token may have running at once',
  ).default(10),
  ...RedisSettingsEnv,
  CLAIMS_REDIS_PREFIX: redisPrefixSchema.default('claims'),
  CLAIMS_QUEUE_LOCK: durationSchema('1s', '10m', '30s').default(parseDuration('30s')),
  CLAIMS_WRITE_PACING_MS: integerSchema(
    0,
    10_000,
    'the milliseconds between two GitHub writes of one installation',
  ).default(1000),
  APP_ID: z
    .string({ error: required("the GitHub App's numeric ID, shown on its settings page") })
    .regex(/^[1-9]\d{0,15}$/, { error: "must be the GitHub App's numeric ID, such as 123456" })
    .transform(Number),
  PRIVATE_KEY: privateKeySchema.optional(),
  PRIVATE_KEY_PATH: privateKeyPathSchema.optional(),
  WEBHOOK_SECRET: z.string({
    error: required("the GitHub App's webhook secret, as set on its settings page"),
  }),
  PORT: integerSchema(0, 65535, 'the port to listen on (0: any free port)').default(3000),
  HOST: hostSchema.optional(),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).default('json'),
  GHE_HOST: gheHostSchema.optional(),
  GHE_PROTOCOL: z.enum(['http', 'https'], { error: 'must be http or https' }).default('https'),
  CLAIMS_REDELIVER_INTERVAL: durationSchema('1m', '24h', '10m').default(parseDuration('10m')),
  CLAIMS_REDELIVER_MAX: integerSchema(
    1,
    10_000,
    'the most deliveries one recovery run redelivers',
  ).default(100),
  CLAIMS_EVENTS_URL: eventsUrlSchema.optional(),
  CLAIMS_EVENTS_SECRET: z
    .string()
    .min(32, {
      error: `must be at least 32 characters of random text, shared with the receiver; ${MAKE_ONE}`,
    })
    .optional(),
  CLAIMS_EVENTS_CONCURRENCY: integerSchema(
    1,
    64,
    'the number of outgoing events sent at once',
  ).default(4),
  CLAIMS_EVENTS_MAX_PENDING: integerSchema(
    1,
    1_000_000,
    'the most outgoing events kept in memory for their receiver',
  ).default(10_000),
  WEBHOOK_PROXY_URL: z
    .url({
      protocol: /^https?$/,
      error: 'must be the URL of a webhook proxy channel, such as https://smee.io/AbCd1234',
    })
    .optional(),
  GITHUB_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, {
      error:
        "must be the GitHub App's client ID, shown on its settings page, such as Iv1.0123456789abcdef",
    })
    .optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  CLAIMS_PUBLIC_URL: publicUrlSchema.optional(),
  CLAIMS_TRUST_PROXY: z
    .enum(['true', 'false'], {
      error:
        'must be true or false: true only when a proxy in front of the app sets X-Forwarded-Proto and drops any a client sent',
    })
    .transform((text) => text === 'true')
    .default(false),
  CLAIMS_SHUTDOWN_TIMEOUT: durationSchema('1s', '10m', '20s').default(parseDuration('20s')),
  CLAIMS_REDELIVER_DELAY: durationSchema('0s', '10m', '15s').default(parseDuration('15s')),
  CLAIMS_SESSION_SECRET: z
    .string()
    .min(32, {
      error: 'must be at least 32 characters of random text (unset: derived from WEBHOOK_SECRET)',
    })
    .optional(),
  CLAIMS_METRICS_TOKEN: metricsTokenSchema.optional(),
});
