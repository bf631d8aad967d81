import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { type MainOptions, main, type RunningApp } from '../../src/app/main.js';
import {
  type FakeGitHub,
  type FakeGitHubOptions,
  startFakeGitHub,
} from '../fake-github/fake-github.js';

/** One RSA key for every harness of a test process: generating one takes ~100 ms. */
export const { privateKey: PRIVATE_KEY } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

export const WEBHOOK_SECRET = 'e2e-webhook-secret';
export const REPO = 'acme/widgets';
/** The installation id of the first harness of a test process; later ones count up. */
export const INSTALLATION_ID = 7;

/**
 * Octokit's throttling keeps its groups per process and keys them by installation id, so
 * harnesses running at once (`describe.concurrent`) get an installation each: otherwise their
 * writes would be paced together, one a second across all of them.
 */
let nextInstallationId = INSTALLATION_ID;

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The real app started through npm start's code path (main), pointed at a fake GitHub. */
export interface Harness {
  readonly fake: FakeGitHub;
  /** The installation on `acme/widgets`. */
  readonly installationId: number;
  app: RunningApp;
  readonly env: Record<string, string>;
  /** `http://127.0.0.1:<port>`: the app's server (`/health`, `/metrics`). */
  readonly appUrl: string;
  readonly webhookUrl: string;
  /** Every log line of the app, as written (when started with `captureLogs`). */
  readonly logLines: string[];
  /** Waits until the fake delivered every webhook and the app's queue is idle, twice over. */
  settle(): Promise<void>;
  /**
   * Stops the app (the fake stays up). Its webhooks go nowhere until `startApp`, as GitHub's
   * deliveries to an app that is down are lost.
   */
  stopApp(): Promise<void>;
  /** Starts the app again with the same settings, waits for its start-up resync, and points
   * the fake's webhooks back at it. */
  startApp(): Promise<void>;
  /** stopApp then startApp (an embedded restart: the in-memory store starts empty). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The spacing, in ms, between two writes of one installation in tests (`CLAIMS_WRITE_PACING_MS`).
 * GitHub asks for a second; the fake does not, and tests that are not about pacing should not
 * spend their time waiting on it. Tests about pacing set their own.
 */
export const TEST_WRITE_PACING_MS = '10';

/** The app's identity and its GitHub at `githubHost` (over http), as every test starts it. */
export function githubEnv(githubHost: string): Record<string, string> {
  return {
    APP_ID: '1',
    PRIVATE_KEY,
    WEBHOOK_SECRET,
    HOST: '127.0.0.1',
    GHE_HOST: githubHost,
    GHE_PROTOCOL: 'http',
    // The fake's webhooks reach the app the moment it is ready: no balancer to wait for.
    CLAIMS_REDELIVER_DELAY: '0s',
  };
}

/** The environment of `npm start` for an app that talks to `fake`. */
export function appEnv(
  fake: FakeGitHub,
  port: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...githubEnv(fake.host),
    PORT: String(port),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'fatal',
    CLAIMS_SWEEP_INTERVAL: '1s',
    CLAIMS_WRITE_PACING_MS: TEST_WRITE_PACING_MS,
    ...extra,
  };
}

/**
 * Starts a fake GitHub with one installation on `acme/widgets`, the collaborators alice and
 * bob, the member maria and the passer-by mallory (`NONE`), then the app, and points the
 * fake's webhooks at the app.
 */
export async function startHarness(
  options: {
    env?: Record<string, string>;
    fake?: FakeGitHubOptions;
    seed?: (fake: FakeGitHub) => void;
    /** Default: INSTALLATION_ID for the first harness of the process, then counting up. */
    installationId?: number;
    /** Keep the app's log lines in `logLines` (set LOG_LEVEL in `env` to see more than fatal). */
    captureLogs?: boolean;
    /** Passed to main as they are (the events' retry schedule, the door's limits). */
    main?: Omit<MainOptions, 'logDestination'>;
  } = {},
): Promise<Harness> {
  const installationId = options.installationId ?? nextInstallationId++;
  const fake = await startFakeGitHub(options.fake);
  fake.addInstallation({ id: installationId, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  fake.addUser('bob', { association: 'COLLABORATOR' });
  fake.addUser('maria', { association: 'MEMBER' });
  fake.addUser('mallory', { association: 'NONE' });
  options.seed?.(fake);
  const port = await freePort();
  const env = appEnv(fake, port, options.env);
  const appUrl = `http://127.0.0.1:${port}`;
  const webhookUrl = `${appUrl}/api/github/webhooks`;
  let running = true;
  const logLines: string[] = [];
  const mainOptions: MainOptions = {
    ...options.main,
    ...(options.captureLogs ? { logDestination: logSink(logLines) } : {}),
  };
  const harness: Harness = {
    fake,
    installationId,
    env,
    appUrl,
    webhookUrl,
    logLines,
    app: await main(env, mainOptions),
    async settle() {
      for (let round = 0; round < 2; round++) {
        await fake.settled();
        await harness.app.warden.queue.idle();
      }
      await fake.settled();
    },
    async stopApp() {
      fake.setWebhookTarget(undefined);
      await fake.settled();
      running = false;
      await harness.app.stop();
    },
    async startApp() {
      harness.app = await main(env, mainOptions);
      running = true;
      await harness.app.warden.started;
      fake.setWebhookTarget({ url: webhookUrl, secret: WEBHOOK_SECRET });
    },
    async restart() {
      await harness.stopApp();
      await harness.startApp();
    },
    async close() {
      fake.setWebhookTarget(undefined);
      await fake.settled();
      if (running) await harness.app.stop();
      await fake.close();
      // A test passes only on requests GitHub would accept (test/fake-github/openapi.ts).
      fake.assertValid();
    },
  };
  await harness.app.warden.started;
  fake.setWebhookTarget({ url: webhookUrl, secret: WEBHOOK_SECRET });
  return harness;
}

/** A log destination that keeps each line in `lines`. */
export function logSink(lines: string[]): Writable {
  let partial = '';
  return new Writable({
    write(chunk, _encoding, done) {
      const text = partial + String(chunk);
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) if (line) lines.push(line);
      done();
    },
  });
}

/**
 * Polls `check` every `everyMs` until it holds; fails naming `what` after `timeoutMs`. The
 * default is generous: it only bounds a wait that will never end, and a loaded machine can
 * take many seconds over a condition that does hold.
 */
export async function waitFor(
  check: () => boolean,
  what: string,
  { timeoutMs = 60_000, everyMs = 100 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** {@link waitFor} for a condition that has to ask (Redis, an HTTP endpoint). */
export async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  { timeoutMs = 60_000, everyMs = 50 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
