import { createHmac } from 'node:crypto';
import { REDIS_SECRET_VARIABLES, redisProblems, redisTargetOf } from './redis-settings.js';
import type { Settings } from './settings.js';
import { SettingsEnv } from './settings-env.js';
import { SettingsError, type SettingsProblem } from './settings-error.js';

// Values that may hold secrets: never quoted in an error (docs/protocol.md §6). A Redis URL can carry a
// password (`redis://:secret@host`), so it is treated as one.
const SECRET_VARIABLES = new Set([
  'PRIVATE_KEY',
  'WEBHOOK_SECRET',
  ...REDIS_SECRET_VARIABLES,
  'CLAIMS_EVENTS_SECRET',
  'WEBHOOK_PROXY_URL',
  'GITHUB_CLIENT_SECRET',
  'CLAIMS_SESSION_SECRET',
  'CLAIMS_METRICS_TOKEN',
]);

// URLs that are not secrets but may carry some (a user name and password, a `?token=`).
const URL_VARIABLES = new Set(['CLAIMS_EVENTS_URL', 'CLAIMS_PUBLIC_URL']);

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
  problems.push(...redisProblems(new Set(Object.keys(input))));
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
  const redis = redisTargetOf(v);
  if (redis.problems.length > 0) throw new SettingsError(redis.problems);
  return {
    staleAfterMs: v.CLAIMS_STALE_AFTER,
    sweepIntervalMs: v.CLAIMS_SWEEP_INTERVAL,
    resyncIntervalMs: v.CLAIMS_RESYNC_INTERVAL,
    configCacheMs: v.CLAIMS_CONFIG_CACHE,
    queueConcurrency: v.CLAIMS_QUEUE_CONCURRENCY,
    apiRatePerMinute: v.CLAIMS_API_RATE_PER_MINUTE,
    apiConcurrency: v.CLAIMS_API_CONCURRENCY,
    redis: redis.target,
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
    trustProxy: v.CLAIMS_TRUST_PROXY,
    shutdownTimeoutMs: v.CLAIMS_SHUTDOWN_TIMEOUT,
    redeliverDelayMs: v.CLAIMS_REDELIVER_DELAY,
    // Derived with a purpose label, so the cookie key never equals the webhook secret itself.
    sessionSecret:
      v.CLAIMS_SESSION_SECRET ??
      createHmac('sha256', v.WEBHOOK_SECRET).update('claim-warden board session').digest('hex'),
    metricsToken: v.CLAIMS_METRICS_TOKEN,
  };
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
