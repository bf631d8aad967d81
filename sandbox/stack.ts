/**
 * The fake GitHub and the real app on loopback, for the sandbox, the benchmark and the fault
 * and fuzz suites. The app is started by main(), npm start's code path, with the settings a
 * newcomer would write; nothing of it is stubbed.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { main, type RunningApp } from '../src/app/main.js';
import {
  type FakeGitHub,
  type FakeGitHubOptions,
  sendWebhook,
  startFakeGitHub,
} from '../test/fake-github/fake-github.js';

/** The webhook secret the app and the fake share. */
export const STACK_SECRET = 'sandbox-webhook-secret';

/** Where Probot's server takes webhooks. */
export const WEBHOOK_PATH = '/api/github/webhooks';

let privateKey: string | undefined;

/** One RSA key per process: generating one takes ~100 ms, and the fake accepts any JWT. */
export function stackPrivateKey(): string {
  privateKey ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  return privateKey;
}

/** A free TCP port on loopback (PORT=0 is not a valid setting, so the app needs one). */
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

/** The environment of `npm start` for an app that talks to `fake` and listens on `port`. */
export function stackEnv(
  fake: FakeGitHub,
  port: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    APP_ID: String(fake.app.id),
    PRIVATE_KEY: stackPrivateKey(),
    WEBHOOK_SECRET: STACK_SECRET,
    PORT: String(port),
    HOST: '127.0.0.1',
    GHE_HOST: fake.host,
    GHE_PROTOCOL: 'http',
    LOG_LEVEL: 'fatal',
    // The fake's webhooks reach the app the moment it is ready: no balancer to wait for.
    CLAIMS_REDELIVER_DELAY: '0s',
    ...extra,
  };
}

/** A delivery as the fake records it (or one made up): sent to the app signed. */
export interface OutgoingDelivery {
  readonly event: string;
  readonly id?: string;
  readonly body: string;
}

/** The fake GitHub and the app, wired together. */
export interface Stack {
  readonly fake: FakeGitHub;
  readonly app: RunningApp;
  readonly env: Readonly<Record<string, string>>;
  /** `http://127.0.0.1:<port>`: the app's server. */
  readonly appUrl: string;
  readonly webhookUrl: string;
  /** Posts a delivery to the app, signed with the shared secret; resolves the HTTP status. */
  deliver(delivery: OutgoingDelivery): Promise<number>;
  /** Waits until the fake delivered every webhook and the app's queue is idle, twice over. */
  settle(): Promise<void>;
  /** Stops the app, then the fake. */
  close(): Promise<void>;
}

/** Options of {@link startStack}. */
export interface StackOptions {
  /** Settings on top of {@link stackEnv}'s. */
  readonly env?: Record<string, string>;
  /** Settings that depend on the started fake (the sandbox's OAuth client), on top of `env`. */
  readonly envFor?: (fake: FakeGitHub) => Record<string, string>;
  readonly fake?: FakeGitHubOptions;
  /** Seeds the fake before the app starts (no webhooks are produced then). */
  readonly seed?: (fake: FakeGitHub) => void;
  /**
   * `send` (default): the fake delivers every change to the app, in order. `capture`: the
   * fake records deliveries and the caller delivers them (duplicated, reordered, dropped).
   */
  readonly webhooks?: 'send' | 'capture';
}

/**
 * Starts the fake GitHub, seeds it, starts the app with main() and waits for its start-up
 * resync, then points the fake's webhooks at the app (or captures them).
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const fake = await startFakeGitHub(options.fake);
  options.seed?.(fake);
  const port = await freePort();
  const env = stackEnv(fake, port, { ...options.env, ...options.envFor?.(fake) });
  const appUrl = `http://127.0.0.1:${port}`;
  const webhookUrl = `${appUrl}${WEBHOOK_PATH}`;
  let app: RunningApp;
  try {
    app = await main(env);
    await app.warden.started;
  } catch (error) {
    await fake.close();
    throw error;
  }
  fake.setWebhookTarget(
    options.webhooks === 'capture' ? { capture: true } : { url: webhookUrl, secret: STACK_SECRET },
  );
  return {
    fake,
    app,
    env,
    appUrl,
    webhookUrl,
    async deliver(delivery) {
      const answer = await sendWebhook(webhookUrl, STACK_SECRET, delivery);
      return answer.status;
    },
    async settle() {
      for (let round = 0; round < 2; round++) {
        await fake.settled();
        await app.warden.queue.idle();
      }
      await fake.settled();
    },
    async close() {
      fake.setWebhookTarget(undefined);
      await fake.settled();
      await app.stop();
      await fake.close();
    },
  };
}
