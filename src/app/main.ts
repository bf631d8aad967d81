import { existsSync } from 'node:fs';
import type { DestinationStream, Logger } from 'pino';
import { Probot, type ProbotOctokit, Server } from 'probot';
import { createBoardHandler } from '../board/board-http.js';
import { storeBoardSource } from '../board/store-board-source.js';
import { checkListenHost, listenSettingsError } from '../config/check-listen-host.js';
import { readSettings } from '../config/read-settings.js';
import type { Settings } from '../config/settings.js';
import { SettingsError } from '../config/settings-error.js';
import { settingsForLog } from '../config/settings-for-log.js';
import type { EventSenderOptions } from '../events/event-outbox.js';
import type { PacingClock } from '../github/write-pacing.js';
import type { HttpRoutes } from '../http-routes.js';
import { createIntake, type Intake, receiveDelivery } from '../intake/intake.js';
import type { WorkQueue } from '../queue/queue.js';
import type { Store } from '../store/store.js';
import { answers } from '../telemetry/answers.js';
import { startTracing } from '../telemetry/start-tracing.js';
import { type ClaimWarden, createClaimWarden } from './app.js';
import { createBackends } from './backends.js';
import { connectToGitHub, type StartupBackoff, StartupError } from './connect-to-github.js';
import { createHttpRoutes } from './http.js';
import { isEntry } from './is-entry.js';
import { createLog } from './log.js';
import { createMetrics, type Metrics } from './metrics.js';
import { requestLog } from './request-log.js';
import { mountRoutes, ROUTE_TABLE } from './route-table.js';
import { needsSetup, startSetup } from './setup.js';
import { startingAnswer } from './starting-answer.js';
import { stopWithin } from './stop-within.js';
import { type NodeMiddleware, type WebhookDoorLimits, webhookDoor } from './webhook-door.js';
import { withoutProbotHttpLog } from './without-probot-http-log.js';

/** The app started by main(). */
export interface RunningApp {
  readonly warden: ClaimWarden;
  /** The port the server listens on (useful with PORT=0). */
  readonly port: number;
  /** Stops taking webhooks, finishes running reconciles, closes the store. */
  stop(): Promise<void>;
  /** `CLAIMS_SHUTDOWN_TIMEOUT`: how long a signal's stop may take before the process exits. */
  readonly shutdownTimeoutMs: number;
}

/** What tests and the benchmark may replace in main(). */
export interface MainOptions {
  /** Replaces Probot's client class (the benchmark compares throttling schemes with it). */
  readonly Octokit?: typeof ProbotOctokit;
  /** Where log lines go (default stdout). */
  readonly logDestination?: DestinationStream & NodeJS.WritableStream;
  /** How start-up waits for an unreachable GitHub. */
  readonly startup?: StartupBackoff;
  /** Called once the server listens, before GitHub is reached (tests poll /health then). */
  readonly onListening?: (port: number) => void;
  /** How outgoing events are retried (docs/protocol.md §13); tests shorten the waits. */
  readonly events?: EventSenderOptions;
  /** The webhook door's limits (tests shorten its 10 s deadline). */
  readonly webhookDoor?: WebhookDoorLimits;
  /** The clock GitHub writes are paced on (default real time); tests drive their own. */
  readonly pacingClock?: PacingClock;
  /** How many callers this process's limits remember (default 10,000; tests flood fewer). */
  readonly callersKept?: number;
  /** The app's clock (default real time); tests move it with the fake GitHub's. */
  readonly now?: () => Date;
  /** When a delivery recovery that redelivered looks again (default 30, 60, 120 s). */
  readonly redeliveryRechecksMs?: readonly number[];
}

/**
 * `npm start`: reads the settings once (a bad one stops start-up naming the variable),
 * starts Probot's server, then reaches GitHub, retrying with backoff while it cannot
 * (`/health` and webhooks answer 503 meanwhile), and stops gracefully on SIGTERM and SIGINT.
 */
export async function main(
  env: NodeJS.ProcessEnv = process.env,
  options: MainOptions = {},
): Promise<RunningApp> {
  const settings = readSettings(env);
  await checkListenHost(settings);
  // Opt-in with OTEL_EXPORTER_OTLP_ENDPOINT (docs/operations.md "Traces"); null: nothing loaded.
  const tracing = await startTracing(env);
  const log = await createLog(settings, options.logDestination);
  if (settings.metricsToken === undefined && env.NODE_ENV === 'production') {
    log.warn(
      { route: 'GET /metrics' },
      'metrics are open to anyone who reaches this port: set CLAIMS_METRICS_TOKEN to require a bearer token, or keep the port off untrusted networks',
    );
  }
  const backends = createBackends(settings, log);
  if (backends.mode === 'redis') {
    await waitForStore(backends, log);
    await backends.checkRedis(log).catch(async (error: unknown) => {
      await Promise.allSettled([backends.store.close(), backends.queue.close()]);
      throw error;
    });
  }
  // Made before GitHub is reached, so /metrics is served while start-up retries: an outage
  // at start-up is when an operator most wants to look.
  const metrics = createMetrics(() => backends.queue.depth().catch(() => Number.NaN));
  const startingRoutes = routesWhileStarting(backends, metrics, settings.metricsToken);

  let warden: ClaimWarden | undefined;
  const intake = createIntake(settings.webhookSecret, log);
  const server = probotServer(settings, log, {
    intake,
    ...(options.Octokit ? { Octokit: options.Octokit } : {}),
    ...(options.webhookDoor ? { door: options.webhookDoor } : {}),
    ready: () => warden !== undefined,
  });
  let probot: Probot | undefined;
  await server.load(async (app, { addHandler }) => {
    probot = app;
    addHandler((req, res) =>
      warden ? warden.handleHttp(req, res) : startingRoutes.handle(req, res),
    );
  });
  const app = probot;
  if (!app) throw new Error('the app did not load');
  try {
    await server.start().catch((error: unknown) => {
      throw listenSettingsError(error, settings);
    });
    options.onListening?.(server.port);
    warden = await connectToGitHub(
      () =>
        createClaimWarden(app, {
          intake,
          settings,
          ...backends,
          log,
          metrics,
          ...(options.events ? { eventSender: options.events } : {}),
          ...(options.pacingClock ? { pacingClock: options.pacingClock } : {}),
          ...(options.callersKept ? { callersKept: options.callersKept } : {}),
          ...(options.now ? { now: options.now } : {}),
          ...(options.redeliveryRechecksMs
            ? { redeliveryRechecksMs: options.redeliveryRechecksMs }
            : {}),
        }),
      { url: `${settings.githubBaseUrl ?? 'https://api.github.com'}/app`, appId: settings.appId },
      log,
      { ...options.startup, onRetry: () => metrics.startupRetries.inc() },
    );
    // The claims board (docs/protocol.md §14): /claims, read from the store.
    const board = createBoardHandler({
      settings,
      source: storeBoardSource(backends.store),
      sessions: backends.sessions,
      log,
    });
    mountRoutes(warden.http, {
      board: async (req, res) => {
        if (!(await board(req, res))) res.writeHead(404).end();
      },
    });
    // The door opens as `warden` is set: GitHub's redeliveries may come now.
    warden.opened();
    metrics.started.set(1);
  } catch (error) {
    await server.stop();
    await backends.queue.close();
    await backends.store.close();
    throw error;
  }
  log.info(
    { mode: backends.mode, port: server.port, settings: settingsForLog(settings) },
    'claim-warden started',
  );

  const running = warden;
  return {
    warden: running,
    port: server.port,
    shutdownTimeoutMs: settings.shutdownTimeoutMs,
    async stop() {
      log.info('shutting down: finishing running reconciles');
      await server.stop();
      await running.stop();
      await tracing?.flush();
    },
  };
}

/**
 * The routes before GitHub answered, as the route table says: `/health` says "starting" (and
 * whether the store answers), `/metrics` is served as later, and the board, the claims API and
 * `/mcp` answer 503 "starting" with `retry-after`; everything else is left to Probot (its 404).
 */
function routesWhileStarting(
  backends: { store: Store; queue: WorkQueue },
  metrics: Metrics,
  metricsToken: string | undefined,
): HttpRoutes {
  const routes = createHttpRoutes({ ...backends, metrics, metricsToken, starting: true });
  const answers = {
    'starting-api': startingAnswer('api'),
    'starting-page': startingAnswer('page'),
  };
  for (const entry of ROUTE_TABLE) {
    if (entry.whileStarting !== 'starting-api' && entry.whileStarting !== 'starting-page') continue;
    for (const method of entry.methods)
      routes.route(method, entry.path, answers[entry.whileStarting]);
  }
  return routes;
}

/**
 * Probot's server built from the operator settings, with the webhook door (bounded bodies,
 * 503 until `ready`, `door` its limits) on its webhook route in place of Probot's middleware:
 * the door hands each genuine delivery to `intake`'s handlers. `Octokit` replaces Probot's
 * client class (the benchmark uses it to compare throttling schemes).
 */
function probotServer(
  settings: Settings,
  log: Logger,
  options: {
    intake: Intake;
    Octokit?: typeof ProbotOctokit;
    ready: () => boolean;
    door?: WebhookDoorLimits;
  },
): Server {
  const Base = Probot.defaults({
    appId: settings.appId,
    privateKey: settings.privateKey,
    secret: settings.webhookSecret,
    log,
    ...(options.Octokit ? { Octokit: options.Octokit } : {}),
    ...(settings.githubBaseUrl ? { baseUrl: settings.githubBaseUrl } : {}),
  }) as typeof Probot;
  // Probot's server calls getNodeMiddleware once, at start, for its webhook route: the door,
  // then the app's intake, in place of Probot's middleware and its Octokit per delivery.
  class WardenProbot extends Base {
    override async getNodeMiddleware(
      middlewareOptions?: Parameters<Probot['getNodeMiddleware']>[0],
    ): Promise<NodeMiddleware> {
      const door = webhookDoor(receiveDelivery(options.intake, log), {
        ...options.door,
        path: middlewareOptions?.path || this.webhookPath,
        secret: settings.webhookSecret,
        log,
        ready: options.ready,
      });
      // The first handler of every request, so every request gets its one line.
      return (req, res, next) => {
        logRequest(req, res);
        return door(req, res, next);
      };
    }
  }
  const logRequest = requestLog(log);
  return new Server({
    host: settings.host,
    // Probot's Server replaces a falsy port with 3000; the string "0" passes that test, and
    // node's listen() reads it as the number 0: any free port.
    port: (settings.port === 0 ? '0' : settings.port) as number,
    log: withoutProbotHttpLog(log),
    ...(settings.webhookProxyUrl ? { webhookProxy: settings.webhookProxyUrl } : {}),
    Probot: WardenProbot,
  });
}

/** The stop bound of setup mode, which reads no settings: CLAIMS_SHUTDOWN_TIMEOUT's default. */
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;

/** How long start-up waits for Redis before giving up (the orchestrator then restarts us). */
const STORE_START_TIMEOUT_MS = 30_000;

/**
 * Waits until the store answers, so no webhook is taken before Redis can record it: the
 * store fails fast once started, and a webhook must be answered within GitHub's 10 seconds.
 */
async function waitForStore(
  { store, queue, variable }: { store: Store; queue: WorkQueue; variable: string },
  log: Logger,
): Promise<void> {
  const deadline = Date.now() + STORE_START_TIMEOUT_MS;
  // The queue has connections of its own: /health asks both, so start-up waits for both.
  const ready = async () => (await store.ping()) && (await answers(queue.depth(), 2000));
  for (let attempt = 1; !(await ready()); attempt++) {
    if (Date.now() >= deadline) {
      await store.close();
      throw new Error(
        `Redis (${variable}) did not answer within ${STORE_START_TIMEOUT_MS / 1000} s: check that it runs and is reachable from this host`,
      );
    }
    if (attempt === 1) log.warn(`waiting for Redis (${variable}) to answer`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

if (isEntry(import.meta.url, process.argv[1])) {
  // Probot's own CLI loads .env; so do we, before the settings are read.
  if (existsSync('.env')) process.loadEnvFile('.env');
  // docs/protocol.md §15: the first start, with no APP_ID, serves Probot's setup page.
  const started: Promise<{ stop(): Promise<void>; shutdownTimeoutMs?: number }> = needsSetup(
    process.env,
  )
    ? startSetup(process.env)
    : main();
  started.then(
    (app) => {
      let stopping = false;
      const onSignal = (signal: string) => {
        if (stopping) return;
        stopping = true;
        const timeoutMs = app.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
        void stopWithin(() => app.stop(), timeoutMs).then((outcome) => {
          if (outcome === 'stopped') process.exit(0);
          if (outcome === 'timed out') {
            console.error(
              `claim-warden: ${signal}: not stopped within ${timeoutMs / 1000} s (CLAIMS_SHUTDOWN_TIMEOUT): exiting with work unfinished; another replica, or the next start, takes it over`,
            );
          } else {
            console.error(`claim-warden: ${signal}: shutdown failed`, outcome.failed);
          }
          process.exit(1);
        });
      };
      process.on('SIGTERM', () => onSignal('SIGTERM'));
      process.on('SIGINT', () => onSignal('SIGINT'));
    },
    (error: unknown) => {
      if (error instanceof SettingsError) {
        console.error(error.message);
      } else if (error instanceof StartupError) {
        console.error(`claim-warden cannot start: ${error.message}`);
      } else {
        console.error('claim-warden cannot start:', error instanceof Error ? error.message : error);
      }
      process.exit(1);
    },
  );
}
