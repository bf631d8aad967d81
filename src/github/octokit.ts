import type { Probot, ProbotOctokit } from 'probot';
import { type WritePacing, writePacing } from './write-pacing.js';

/*
 * Why this file exists — what the Probot 14.3.2 sources show (docs/protocol.md §6: "writes of different
 * installations never wait on each other"):
 *
 * - @octokit/plugin-throttling 11 (dist-bundle/index.js) keeps its Bottleneck groups in a
 *   module-level `groups` object, created once per process and shared by every Octokit
 *   instance of every class: `write` (maxConcurrent 1, minTime 1 s), `notifications`
 *   (minTime 3 s, for writes that notify, such as POST .../issues/{n}/comments), `search`,
 *   `global` (maxConcurrent 10) and `auth`. Each request is scheduled on
 *   `group.key(state.id)`, and `state.id` is the `throttle.id` option, default "no-id".
 *   So the throttle key, not the instance or the class, decides who waits on whom; a new
 *   Octokit class per installation would change nothing.
 * - probot/lib/octokit/probot-octokit.js enables throttling without an `id`, and
 *   get-probot-octokit-with-defaults.js (with get-octokit-throttle-options.js) replaces the
 *   handlers: onRateLimit retries while retryCount <= 2 whatever the wait, onSecondaryRateLimit
 *   only logs, so a secondary rate limit is never retried, and neither log names the
 *   installation.
 * - `context.octokit` comes from octokit-auth-probot (dist-src/auth.js, type "event-octokit"):
 *   its factory builds `new Octokit({ ...state.octokitOptions, auth })`, keeping the app
 *   octokit's throttle options, so no `id`: every installation's event octokit shares the key
 *   "no-id", and writes of all installations are spaced 1 s (comments 3 s) apart process-wide;
 *   reads share 10 concurrent slots.
 * - `app.auth(id)` (probot/lib/octokit/get-authenticated-octokit.js) does set
 *   `throttle.id = String(installationId)`, so its writes are keyed per installation, but it
 *   keeps Probot's handlers above.
 *
 * installationOctokit() therefore goes the app.auth(id) way: it asks the app octokit for an
 * installation octokit with a factory (auth-app passes `octokit` and `octokitOptions`, the app
 * octokit's constructor options) and builds it with the same class and options, plus:
 * `throttle.id` = the installation id, handlers that honour retry-after and x-ratelimit-reset
 * a bounded number of times and log the installation, and 429 left to the throttling plugin
 * alone. Its writes are paced on a WritePacing (write-pacing.ts) in place of the plugin's
 * process-wide groups, with the same spacings by default, so that the spacing can be chosen
 * and its clock injected. The app writes to installations through these octokits only, so
 * they are the only writers one installation's pacing needs to cover (per process, as the
 * plugin's groups without Probot's REDIS_URL, which claim-warden does not set).
 * Tokens: the auth options keep Probot's token cache; @octokit/auth-app's request hook fetches
 * and refreshes the installation token per request, so an instance can be kept and reused.
 */

/** How installation octokits react to GitHub's rate limits. */
interface InstallationOctokitOptions {
  /** Retries of one request after a primary or secondary rate limit. Default 3. */
  readonly maxRateLimitRetries?: number;
  /**
   * The longest wait, in seconds, worth holding a request for. A longer one (a primary limit
   * resetting in half an hour) fails the request at once, so the reconcile is retried later by
   * the queue instead of holding a worker that other installations need. Default 60.
   */
  readonly maxRetryAfterSeconds?: number;
  /**
   * How writes are spaced, per installation. Default: one pacing for the whole process, with
   * GitHub's one second between writes (three between writes that notify).
   */
  readonly pacing?: WritePacing;
}

let processPacing: WritePacing | undefined;

/** The pacing shared by installation octokits given none: the throttling plugin's spacings. */
function defaultPacing(): WritePacing {
  processPacing ??= writePacing();
  return processPacing;
}

// @octokit/plugin-retry's default doNotRetry list, plus 429: rate limits are the throttling
// plugin's to handle with GitHub's own wait. plugin-retry would retry a 429 that throttling
// gave up on after its fixed 1, 4, 9 s, ignoring the reset time.
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];

/** The parts of the factory options that @octokit/auth-app passes us (see above). */
interface FactoryOptions {
  octokit: ProbotOctokit;
  octokitOptions: {
    log?: LoggerLike;
    throttle?: Record<string, unknown> & { enabled?: boolean };
    retry?: Record<string, unknown>;
    auth?: Record<string, unknown>;
    [option: string]: unknown;
  };
}

interface LoggerLike {
  warn(fields: object, message: string): void;
  child?(bindings: object): LoggerLike;
}

interface LimitedRequest {
  method: string;
  url: string;
}

/**
 * An octokit authenticated as one installation, with throttle groups of its own: its writes
 * never wait on another installation's (docs/protocol.md §6), and rate limits are honoured as GitHub asks
 * (retry-after, x-ratelimit-reset). Same class, plugins, base URL and token cache as
 * `context.octokit`.
 */
export async function installationOctokit(
  app: Probot,
  installationId: number,
  options: InstallationOctokitOptions = {},
): Promise<ProbotOctokit> {
  const appOctokit = await app.auth();
  const octokit = await appOctokit.auth({
    type: 'installation',
    installationId,
    factory: (factoryOptions: FactoryOptions) =>
      buildInstallationOctokit(factoryOptions, installationId, options),
  });
  return octokit as ProbotOctokit;
}

/**
 * One installation octokit per installation, built on first use and kept: tokens refresh by
 * themselves (see above), so there is no reason to rebuild one per event.
 */
export class InstallationOctokits {
  readonly #app: Probot;
  readonly #options: InstallationOctokitOptions;
  readonly #octokits = new Map<number, Promise<ProbotOctokit>>();

  constructor(app: Probot, options: InstallationOctokitOptions = {}) {
    this.#app = app;
    // One pacing for all of them, so every octokit of one installation paces together.
    this.#options = { ...options, pacing: options.pacing ?? defaultPacing() };
  }

  /** The octokit of an installation. */
  get(installationId: number): Promise<ProbotOctokit> {
    let octokit = this.#octokits.get(installationId);
    if (!octokit) {
      octokit = installationOctokit(this.#app, installationId, this.#options);
      // A failed build is not kept: the next call tries again.
      const pending = octokit;
      pending.catch(() => {
        if (this.#octokits.get(installationId) === pending) this.#octokits.delete(installationId);
      });
      this.#octokits.set(installationId, octokit);
    }
    return octokit;
  }

  /** Drops an installation's octokit (the app was uninstalled or suspended there). */
  forget(installationId: number): void {
    this.#octokits.delete(installationId);
  }
}

/**
 * How long GitHub asked to wait, in ms, before repeating a request that failed on a rate
 * limit: `retry-after` (secondary limits), else `x-ratelimit-reset` when
 * `x-ratelimit-remaining` is 0 (primary limit), plus a second as GitHub's docs advise.
 * Undefined when the error is no rate limit. Installation octokits put it on the error they
 * throw as `retryAfterMs` (see {@link RateLimitedError}), which the work queue honours.
 */
export function rateLimitRetryAfterMs(
  error: unknown,
  now: number = Date.now(),
): number | undefined {
  const failure = error as { status?: unknown; response?: { headers?: Record<string, unknown> } };
  if (failure?.status !== 403 && failure?.status !== 429) return undefined;
  const headers = failure.response?.headers ?? {};
  const retryAfter = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0) {
    return retryAfter * 1000;
  }
  const reset = Number(headers['x-ratelimit-reset']);
  if (String(headers['x-ratelimit-remaining']) === '0' && Number.isFinite(reset)) {
    return Math.max(reset * 1000 - now, 0) + 1000;
  }
  return undefined;
}

/**
 * What a request of an installation octokit throws once it gave up on a rate limit: GitHub's
 * error, plus the wait GitHub asked for. The work queue reads `retryAfterMs` (also through
 * a wrapping error's `cause`) to retry no sooner and to hold the installation's other work
 * as long (docs/protocol.md §6).
 */
type RateLimitedError = Error & { status: number; retryAfterMs: number };

function buildInstallationOctokit(
  { octokit, octokitOptions }: FactoryOptions,
  installationId: number,
  options: InstallationOctokitOptions,
): ProbotOctokit {
  const maxRetries = options.maxRateLimitRetries ?? 3;
  const maxWait = options.maxRetryAfterSeconds ?? 60;
  const pacing = options.pacing ?? defaultPacing();
  const baseLog = octokitOptions.log;
  const log =
    typeof baseLog?.child === 'function'
      ? baseLog.child({ name: 'github', installationId })
      : baseLog;

  // The throttling plugin calls these with the wait it derived from retry-after or
  // x-ratelimit-reset; returning true retries the request after that wait.
  const onLimit =
    (limit: 'primary' | 'secondary') =>
    (retryAfter: number, request: LimitedRequest, _octokit: unknown, retryCount: number) => {
      const retry = retryCount < maxRetries && retryAfter <= maxWait;
      const fields = {
        installationId,
        limit,
        method: request.method,
        url: request.url,
        retryAfter,
        retryCount,
      };
      if (retry) log?.warn(fields, 'GitHub rate limit hit; retrying after the wait it asked for');
      else log?.warn(fields, 'GitHub rate limit hit; giving up on the request');
      return retry;
    };

  const throttle =
    octokitOptions.throttle?.enabled === false
      ? octokitOptions.throttle
      : {
          ...octokitOptions.throttle,
          id: String(installationId),
          // The plugin schedules on these instead of its own process-wide groups.
          write: pacing.write,
          notifications: pacing.notifications,
          onRateLimit: onLimit('primary'),
          onSecondaryRateLimit: onLimit('secondary'),
        };

  // The same class as the app octokit: Probot's ProbotOctokit with its defaults (base URL,
  // token cache, throttling connection), exactly as get-authenticated-octokit.js does.
  const Octokit = octokit.constructor as new (options: object) => ProbotOctokit;
  const built = new Octokit({
    ...octokitOptions,
    log,
    throttle,
    retry: { ...octokitOptions.retry, doNotRetry: DO_NOT_RETRY },
    auth: { ...octokitOptions.auth, installationId },
  });
  // Registered after the plugins' hooks, so it wraps them: it sees the error only once the
  // throttling plugin gave up (a wait too long, or retries spent, or a 429 it does not know).
  built.hook.error('request', (error) => {
    const retryAfterMs = rateLimitRetryAfterMs(error);
    if (retryAfterMs !== undefined) (error as RateLimitedError).retryAfterMs = retryAfterMs;
    throw error;
  });
  return built;
}
