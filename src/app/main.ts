import { existsSync } from 'node:fs';
import { type Logger, pino } from 'pino';
import { Probot, type ProbotOctokit, Server } from 'probot';
import { createBoardHandler } from '../board/board-http.js';
import { storeBoardSource } from '../board/store-board-source.js';
import { readSettings, type Settings, SettingsError, settingsForLog } from '../config/settings.js';
import type { Store } from '../store/store.js';
import { type ClaimWarden, createClaimWarden } from './app.js';
import { createBackends } from './backends.js';

/** The app started by main(). */
export interface RunningApp {
  readonly warden: ClaimWarden;
  /** The port the server listens on (useful with PORT=0). */
  readonly port: number;
  /** Stops taking webhooks, finishes running reconciles, closes the store. */
  stop(): Promise<void>;
}

/**
 * `npm start`: reads the settings once (a bad one stops start-up naming the variable),
 * starts Probot's server with the app, and stops gracefully on SIGTERM and SIGINT.
 */
export async function main(
  env: NodeJS.ProcessEnv = process.env,
  options: { Octokit?: typeof ProbotOctokit } = {},
): Promise<RunningApp> {
  const settings = readSettings(env);
  const log = pino({ level: settings.logLevel, name: 'claim-warden' });
  const backends = createBackends(settings, log);
  if (backends.mode === 'redis') await waitForStore(backends.store, log);
  const server = probotServer(settings, log, options.Octokit);

  let warden: ClaimWarden | undefined;
  await server.load(async (app, { addHandler }) => {
    warden = await createClaimWarden(app, { settings, ...backends });
    const running = warden;
    addHandler((req, res) => running.handleHttp(req, res));
    // The claims board (docs/protocol.md §14): /claims, read from the store.
    addHandler(createBoardHandler({ settings, source: storeBoardSource(backends.store), log }));
  });
  try {
    await server.start();
  } catch (error) {
    // The app already loaded: stop its timers and queue, or they would outlive the failure.
    await warden?.stop();
    throw error;
  }
  log.info({ mode: backends.mode, settings: settingsForLog(settings) }, 'claim-warden started');

  if (!warden) throw new Error('the app did not load');
  const running = warden;
  return {
    warden: running,
    port: server.port,
    async stop() {
      log.info('shutting down: finishing running reconciles');
      await server.stop();
      await running.stop();
    },
  };
}

/**
 * Probot's server built from the operator settings. `Octokit` replaces Probot's client class
 * (the benchmark uses it to compare throttling schemes).
 */
export function probotServer(
  settings: Settings,
  log: Logger,
  Octokit?: typeof ProbotOctokit,
): Server {
  return new Server({
    host: settings.host,
    port: settings.port,
    log,
    Probot: Probot.defaults({
      appId: settings.appId,
      privateKey: settings.privateKey,
      secret: settings.webhookSecret,
      log,
      ...(Octokit ? { Octokit } : {}),
      ...(settings.githubBaseUrl ? { baseUrl: settings.githubBaseUrl } : {}),
    }),
  });
}

/** How long start-up waits for Redis before giving up (the orchestrator then restarts us). */
export const STORE_START_TIMEOUT_MS = 30_000;

/**
 * Waits until the store answers, so no webhook is taken before Redis can record it: the
 * store fails fast once started, and a webhook must be answered within GitHub's 10 seconds.
 */
async function waitForStore(store: Store, log: Logger): Promise<void> {
  const deadline = Date.now() + STORE_START_TIMEOUT_MS;
  for (let attempt = 1; !(await store.ping()); attempt++) {
    if (Date.now() >= deadline) {
      await store.close();
      throw new Error(
        `Redis (CLAIMS_REDIS_URL) did not answer within ${STORE_START_TIMEOUT_MS / 1000} s: check that it runs and is reachable from this host`,
      );
    }
    if (attempt === 1) log.warn('waiting for Redis (CLAIMS_REDIS_URL) to answer');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const isEntry =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  // Probot's own CLI loads .env; so do we, before the settings are read.
  if (existsSync('.env')) process.loadEnvFile('.env');
  main().then(
    (app) => {
      let stopping = false;
      const onSignal = (signal: string) => {
        if (stopping) return;
        stopping = true;
        app.stop().then(
          () => process.exit(0),
          (err: unknown) => {
            console.error(`claim-warden: ${signal}: shutdown failed`, err);
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', () => onSignal('SIGTERM'));
      process.on('SIGINT', () => onSignal('SIGINT'));
    },
    (error: unknown) => {
      if (error instanceof SettingsError) {
        console.error(error.message);
      } else {
        console.error('claim-warden cannot start:', error instanceof Error ? error.message : error);
      }
      process.exit(1);
    },
  );
}
