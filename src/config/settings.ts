import { createHmac, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { durationSchema, parseDuration } from './duration.js';

/** The pino levels Probot accepts for `LOG_LEVEL` (probot/lib/helpers/validate-log-level.js). */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** A `LOG_LEVEL` value. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The operator's settings, read once at start-up by readSettings (docs/protocol.md §7). Durations are in
 * milliseconds. `privateKey`, `webhookSecret` and `redisUrl` are secrets: log settingsForLog()
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
  /** `CLAIMS_REDIS_URL`: shared state for many replicas; undefined runs in-process (docs/protocol.md §7). */
  readonly redisUrl: string | undefined;
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

/** One bad variable and what it should hold. */
export interface SettingsProblem {
  readonly variable: string;
  readonly message: string;
}

/**
 * Thrown by readSettings when any variable is bad (docs/protocol.md §6: the process refuses to start with
 * a message naming the variable). Lists every problem at once so one restart fixes them all;
 * secret values are never quoted.
 */
export class SettingsError extends Error {
  /** The problems, one per variable, in the order of the message. */
  readonly problems: readonly SettingsProblem[];

  constructor(problems: readonly SettingsProblem[]) {
    const lines = problems.map((p) => `  ${p.variable}: ${p.message}`);
    super(`claim-warden cannot start; fix these environment variables:\n${lines.join('\n')}`);
    this.name = 'SettingsError';
    this.problems = problems;
  }
}

// Values that may hold secrets: never quoted in an error (docs/protocol.md §6). A Redis URL can carry a
// password (`redis://:secret@host`), so it is treated as one.
const SECRET_VARIABLES = new Set([
  'PRIVATE_KEY',
  'WEBHOOK_SECRET',
  'CLAIMS_REDIS_URL',
  'CLAIMS_EVENTS_SECRET',
  'WEBHOOK_PROXY_URL',
  'GITHUB_CLIENT_SECRET',
  'CLAIMS_SESSION_SECRET',
  'CLAIMS_METRICS_TOKEN',
]);

// URLs that are not secrets but may carry some (a user name and password, a `?token=`).
const URL_VARIABLES = new Set(['CLAIMS_EVENTS_URL', 'CLAIMS_PUBLIC_URL']);

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

const PEM_KEY = /-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----/;

/**
 * Undoes the ways Probot lets `PRIVATE_KEY` be written (@probot/get-private-key): base64 of the
 * PEM, `\n` escapes, or the PEM squashed onto one line.
 */
function normalisePrivateKey(text: string): string {
  let key = text.trim();
  if (!key.includes('-----BEGIN') && Buffer.from(key, 'base64').toString('base64') === key) {
    key = Buffer.from(key, 'base64').toString('utf8').trim();
  }
  key = key.replace(/\\n/g, '\n');
  const oneLine = /^(-----BEGIN [A-Z ]+-----) (.+) (-----END [A-Z ]+-----)$/.exec(key);
  if (oneLine && !key.includes('\n')) {
    key = `${oneLine[1]}\n${oneLine[2]!.replace(/\s+/g, '\n')}\n${oneLine[3]}`;
  }
  return key;
}

/**
 * Checks that a key is a PEM RSA private key that Node can load, so a truncated paste fails
 * here, naming the variable, instead of at the first token request. Returns a problem or null;
 * never the key or crypto's text about it.
 */
function privateKeyProblem(key: string): string | null {
  const how =
    'the GitHub App private key in PEM form (-----BEGIN RSA PRIVATE KEY----- ... or -----BEGIN PRIVATE KEY----- ...)';
  if (!PEM_KEY.test(key)) return `must be ${how}`;
  try {
    const parsed = createPrivateKey(key);
    if (parsed.asymmetricKeyType !== 'rsa') return `must be an RSA key: ${how}`;
  } catch {
    return `looks like a PEM key but cannot be loaded (truncated or altered?): ${how}`;
  }
  return null;
}

const privateKeySchema = z
  .string()
  .transform(normalisePrivateKey)
  .superRefine((key, ctx) => {
    const problem = privateKeyProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

// The file is read here, once, so the app never starts with a key it cannot read.
const privateKeyPathSchema = z.string().transform((path, ctx) => {
  let key: string;
  try {
    key = readFileSync(resolve(path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    ctx.addIssue({ code: 'custom', message: `must be a readable file holding the key (${code})` });
    return z.NEVER;
  }
  const problem = privateKeyProblem(key.trim());
  if (problem) {
    ctx.addIssue({
      code: 'custom',
      message: `the file ${problem.replace(/^must be/, 'must hold')}`,
    });
    return z.NEVER;
  }
  return key;
});

const redisUrlMessage =
  'must be a redis:// or rediss:// URL such as redis://redis:6379 (value not shown: it may hold a password)';

// Letters, digits, `.`, `_` and `-`: no `:` (the key separator), no `{}` (cluster hash tags),
// no `*?[` (glob characters an operator would use to find the keys).
const redisPrefixSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
  error:
    'must be 1 to 64 letters, digits, dots, underscores or hyphens, starting with a letter or digit, such as claims',
});

const redisUrlSchema = z.string().refine(
  (text) => {
    try {
      const url = new URL(text);
      return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
    } catch {
      return false;
    }
  },
  { error: redisUrlMessage },
);

// An http(s) URL: the receiver of outgoing events (docs/protocol.md §13).
const eventsUrlSchema = z.string().refine(
  (text) => {
    try {
      const url = new URL(text);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  },
  {
    error:
      'must be an http:// or https:// URL that receives claim events, such as https://hooks.example.com/claims',
  },
);

// host[:port] as Probot pastes it into `${GHE_PROTOCOL}://${GHE_HOST}/api/v3`: a scheme or a
// path here would build a broken URL, so both are refused with a hint.
const HOST_PORT =
  /^(?=.{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(\d{1,5}))?$/i;

const gheHostSchema = z.string().refine(
  (text) => {
    const match = HOST_PORT.exec(text);
    if (!match) return false;
    return match[1] === undefined || (Number(match[1]) >= 1 && Number(match[1]) <= 65535);
  },
  {
    error:
      'must be a host name with an optional port, such as github.example.com or github.example.com:8443, without https:// (set GHE_PROTOCOL for that)',
  },
);

// The board's address as browsers reach it; a path prefix is kept (a proxy may mount the app).
// It becomes the OAuth callback and the cookies' scope (docs/protocol.md §14), so it is taken
// only in one unambiguous form: WHATWG parsing would read `http:x.example` as
// `http://x.example/`, drop a leading space, and keep a user name and password.
const PUBLIC_URL_EXAMPLE = 'such as https://claims.example.com';
const publicUrlSchema = z.string().transform((text, ctx) => {
  const refuse = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (/[\s\u0000-\u001f\u007f]/.test(text)) {
    return refuse(
      `must not contain a space or control character: the address browsers use for the app, ${PUBLIC_URL_EXAMPLE}`,
    );
  }
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:\/\/[^/]/i.test(text) || url.hostname === '') {
    return refuse(
      `must be an absolute http:// or https:// address with a host: the address browsers use for the app, ${PUBLIC_URL_EXAMPLE}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    return refuse(
      `must not hold a user name or password: the address browsers use for the app, ${PUBLIC_URL_EXAMPLE}`,
    );
  }
  if (text.includes('?') || text.includes('#')) {
    return refuse(
      `must not have a query or a fragment: the address browsers use for the app, ${PUBLIC_URL_EXAMPLE}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
});

// Where the server listens: an IP literal or a host name, nothing else (no scheme, no port:
// PORT says that). Whether the name resolves is checked by checkListenHost, at start-up.
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const hostSchema = z.string().refine((text) => isIP(text) !== 0 || HOST_NAME.test(text), {
  error:
    'must be an IP address or a host name to listen on, such as 0.0.0.0 (every interface, for containers), 127.0.0.1 or localhost; without a scheme or port (set PORT for that)',
});

// A bearer token Prometheus sends in a header: printable ASCII, no spaces.
const metricsTokenSchema = z.string().regex(/^[\x21-\x7e]{32,}$/, {
  error: `must be at least 32 characters without spaces: the bearer token that GET /metrics requires; ${MAKE_ONE}`,
});

// Every variable the app or Probot reads, each validated on its own so that one bad value does
// not hide the others. Empty strings count as unset (a `FOO=` line in a compose file).
const SettingsEnv = z.object({
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
  CLAIMS_REDIS_URL: redisUrlSchema.optional(),
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
  CLAIMS_SESSION_SECRET: z
    .string()
    .min(32, {
      error: 'must be at least 32 characters of random text (unset: derived from WEBHOOK_SECRET)',
    })
    .optional(),
  CLAIMS_METRICS_TOKEN: metricsTokenSchema.optional(),
});

/**
 * Reads and checks the operator's settings (docs/protocol.md §7) from `env`, once, at start-up. Throws a
 * SettingsError naming every bad variable and what it should hold, without quoting secrets.
 * `PRIVATE_KEY` wins over `PRIVATE_KEY_PATH` when both are set, as in Probot.
 */
export function readSettings(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Settings {
  const input: Record<string, string> = {};
  for (const name of Object.keys(SettingsEnv.shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') input[name] = value;
  }
  // Probot ignores the path when PRIVATE_KEY is set; so do we, rather than fail on a file
  // that would never be read.
  if (input.PRIVATE_KEY !== undefined) delete input.PRIVATE_KEY_PATH;

  const problems: SettingsProblem[] = [];
  const parsed = SettingsEnv.safeParse(input);
  if (!parsed.success) {
    const named = new Set<string>();
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0] ?? '(environment)');
      if (named.has(variable)) continue;
      named.add(variable);
      problems.push({ variable, message: withValue(variable, issue.message, input[variable]) });
    }
  }
  if (input.PRIVATE_KEY === undefined && input.PRIVATE_KEY_PATH === undefined) {
    problems.push({
      variable: 'PRIVATE_KEY',
      message:
        "is required: the GitHub App's private key (PEM), or set PRIVATE_KEY_PATH to the file that holds it",
    });
  }
  // docs/protocol.md §13: events are signed, so a receiver can tell them from anyone's POST.
  if (input.CLAIMS_EVENTS_URL !== undefined && input.CLAIMS_EVENTS_SECRET === undefined) {
    problems.push({
      variable: 'CLAIMS_EVENTS_SECRET',
      message:
        'is required when CLAIMS_EVENTS_URL is set: the secret that signs each event (X-Claims-Signature-256), shared with the receiver',
    });
  }
  // A secret with nothing to sign is a setting that silently does nothing: say so.
  if (input.CLAIMS_EVENTS_SECRET !== undefined && input.CLAIMS_EVENTS_URL === undefined) {
    problems.push({
      variable: 'CLAIMS_EVENTS_URL',
      message:
        'is required when CLAIMS_EVENTS_SECRET is set: the http(s) URL that receives the signed claim events (or unset CLAIMS_EVENTS_SECRET to send none)',
    });
  }
  // The board's sign-in needs both halves of the OAuth credentials (docs/protocol.md §14).
  for (const [present, missing] of [
    ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
    ['GITHUB_CLIENT_SECRET', 'GITHUB_CLIENT_ID'],
  ] as const) {
    if (input[present] !== undefined && input[missing] === undefined) {
      problems.push({
        variable: missing,
        message: `is required with ${present}: the GitHub App's OAuth ${missing.endsWith('ID') ? 'client ID' : 'client secret'} from its settings page (or unset both to turn the claims board off)`,
      });
    }
  }
  if (!parsed.success || problems.length > 0) {
    throw new SettingsError(problems);
  }

  const v = parsed.data;
  const privateKey = v.PRIVATE_KEY ?? v.PRIVATE_KEY_PATH;
  if (privateKey === undefined) throw new SettingsError(problems); // unreachable: checked above
  return {
    staleAfterMs: v.CLAIMS_STALE_AFTER,
    sweepIntervalMs: v.CLAIMS_SWEEP_INTERVAL,
    resyncIntervalMs: v.CLAIMS_RESYNC_INTERVAL,
    configCacheMs: v.CLAIMS_CONFIG_CACHE,
    queueConcurrency: v.CLAIMS_QUEUE_CONCURRENCY,
    apiRatePerMinute: v.CLAIMS_API_RATE_PER_MINUTE,
    apiConcurrency: v.CLAIMS_API_CONCURRENCY,
    redisUrl: v.CLAIMS_REDIS_URL,
    redisPrefix: v.CLAIMS_REDIS_PREFIX,
    queueLockMs: v.CLAIMS_QUEUE_LOCK,
    writePacingMs: v.CLAIMS_WRITE_PACING_MS,
    appId: v.APP_ID,
    privateKey,
    webhookSecret: v.WEBHOOK_SECRET,
    port: v.PORT,
    host: v.HOST,
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    gheHost: v.GHE_HOST,
    gheProtocol: v.GHE_PROTOCOL,
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
    // Derived with a purpose label, so the cookie key never equals the webhook secret itself.
    sessionSecret:
      v.CLAIMS_SESSION_SECRET ??
      createHmac('sha256', v.WEBHOOK_SECRET).update('claim-warden board session').digest('hex'),
    metricsToken: v.CLAIMS_METRICS_TOKEN,
  };
}

/**
 * The settings as they may be logged (docs/protocol.md §6): secrets left out, each URL as its
 * origin only (scheme://host:port): a user name, a password, a path or a query may carry a
 * token (a receiver's `?token=`, a Redis password).
 */
export function settingsForLog(settings: Settings): Record<string, unknown> {
  const {
    privateKey: _key,
    webhookSecret: _secret,
    eventsSecret: _eventsSecret,
    sessionSecret: _session,
    metricsToken,
    boardOAuth,
    redisUrl,
    eventsUrl,
    publicUrl,
    webhookProxyUrl,
    ...rest
  } = settings;
  return {
    ...rest,
    redisUrl: redisUrl === undefined ? undefined : urlOrigin(redisUrl),
    eventsUrl: eventsUrl === undefined ? undefined : urlOrigin(eventsUrl),
    publicUrl: publicUrl === undefined ? undefined : urlOrigin(publicUrl),
    webhookProxy: webhookProxyUrl !== undefined,
    boardClientId: boardOAuth?.clientId,
    metricsToken: metricsToken !== undefined,
  };
}

/** A URL's scheme, host and port only (`redis://…` has no WHATWG origin, so it is built). */
export function urlOrigin(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(unparseable URL)';
  }
}

/** Adds `(got "...")` to a problem, except for secret variables, whose values are never shown. */
function withValue(variable: string, message: string, value: string | undefined): string {
  if (value === undefined || SECRET_VARIABLES.has(variable)) return message;
  // A URL's user name, password and query may be credentials: shown as `***`.
  const quoted = URL_VARIABLES.has(variable)
    ? value.replace(/\/\/[^/?#]*@/, '//***@').replace(/[?#].*$/s, '?***')
    : value;
  const shown = quoted.length > 60 ? `${quoted.slice(0, 60)}…` : quoted;
  return `${message} (got ${JSON.stringify(shown)})`;
}
