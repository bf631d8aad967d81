import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { type MainOptions, main, type RunningApp } from '../../src/app/main.js';
import { renderClaimComment } from '../../src/claims/comment.js';
import {
  type FakeGitHub,
  sendWebhook,
  startFakeGitHub,
  type WebhookDelivery,
} from '../fake-github/fake-github.js';
import {
  appEnv,
  freePort,
  INSTALLATION_ID,
  REPO,
  WEBHOOK_SECRET,
  waitFor,
  waitUntil,
} from '../helpers/app-harness.js';
import {
  flushPrefix,
  REDIS_HOST,
  REDIS_PORT,
  redisUrl,
  requireRedis,
  uniquePrefix,
} from '../helpers/redis.js';

export { INSTALLATION_ID, REPO, waitFor, waitUntil };

/** The replicas suites' database (the store and queue suites use 5 and 6). */
export const DB = 8;

/** Issue locks (and BullMQ's job locks) of 2 s: another replica takes over within seconds. */
export const FAST_LOCK = { CLAIMS_QUEUE_LOCK: '2s' };

/** One replica of the app: in this process (`main()`) or a child process. */
export interface Replica {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  readonly webhookUrl: string;
  /** The running app, for in-process replicas. */
  readonly app?: RunningApp;
  /** The process, for child replicas. */
  readonly child?: ChildProcess;
  /** Stops it gracefully (SIGTERM for a child, resolving once it exited). */
  stop(): Promise<void>;
}

/** N replicas sharing one Redis prefix and one fake GitHub, webhooks captured. */
export interface Cluster {
  readonly fake: FakeGitHub;
  /** The Redis key prefix every replica of this cluster uses (`CLAIMS_REDIS_PREFIX`). */
  readonly prefix: string;
  readonly replicas: Replica[];
  /** A client on the suite's database, for assertions and cleanup. */
  readonly redis: Redis;
  /** The environment of a replica on `port` (with `extra`), through Redis at `redisUrl`. */
  env(port: number, extra?: Record<string, string>): Record<string, string>;
  /** Starts one more replica in this process (`main` options such as a pacing clock). */
  startReplica(options?: {
    env?: Record<string, string>;
    name?: string;
    main?: MainOptions;
  }): Promise<Replica>;
  /** Starts one more replica in a child process (`node --import tsx src/app/main.ts`). */
  spawnReplica(options?: { env?: Record<string, string>; name?: string }): Promise<Replica>;
  /** Sends a captured delivery to a replica, as GitHub (re)delivers it; resolves its status. */
  send(delivery: WebhookDelivery, replica: Replica, timeoutMs?: number): Promise<number>;
  /** Resolves once the shared queue is idle (asked through an in-process replica). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the fake GitHub (installation 7 on acme/widgets with its status label, collaborators
 * alice and bob) with webhooks captured, then `replicas` replicas of the app in this process, all on Redis
 * database 8 under a prefix of their own. Replicas start together, as a cluster does.
 */
export async function startCluster(
  options: {
    replicas?: number;
    env?: Record<string, string>;
    seed?: (fake: FakeGitHub) => void;
    /** Where the replicas reach Redis (default: database 8 directly; a proxy's URL). */
    redisUrl?: string;
    /** How the replicas name Redis instead (Sentinels, a Cluster: `CLAIMS_REDIS_*`). */
    redisEnv?: Record<string, string>;
    /**
     * Create `status:in-progress` on acme/widgets beforehand (default true): a claim then
     * costs two paced writes, not three, which keeps the suite short.
     */
    label?: boolean;
    /** What main() of each replica started together is given (a shared clock, say). */
    main?: MainOptions;
  } = {},
): Promise<Cluster> {
  const redis = await requireRedis(DB);
  const fake = await startFakeGitHub({ log: () => {} });
  fake.addInstallation({ id: INSTALLATION_ID, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  fake.addUser('bob', { association: 'COLLABORATOR' });
  if (options.label ?? true) fake.createLabel(REPO, { name: 'status:in-progress' });
  options.seed?.(fake);
  fake.setWebhookTarget({ capture: true });

  const prefix = uniquePrefix('cw-replicas');
  const redisEnv = options.redisEnv ?? { CLAIMS_REDIS_URL: options.redisUrl ?? redisUrl(DB) };
  const replicas: Replica[] = [];
  let counter = 0;
  const env = (port: number, extra: Record<string, string> = {}) =>
    appEnv(fake, port, {
      ...redisEnv,
      CLAIMS_REDIS_PREFIX: prefix,
      ...options.env,
      ...extra,
    });

  const cluster: Cluster = {
    fake,
    prefix,
    replicas,
    redis,
    env,
    async startReplica(opts = {}) {
      const port = await freePort();
      const app = await main(env(port, opts.env), opts.main);
      const replica = inProcessReplica(opts.name ?? `r${++counter}`, port, app);
      replicas.push(replica);
      return replica;
    },
    async spawnReplica(opts = {}) {
      const port = await freePort();
      const replica = await childReplica(opts.name ?? `r${++counter}`, port, env(port, opts.env));
      replicas.push(replica);
      return replica;
    },
    async send(delivery, replica, timeoutMs) {
      const answer = await sendWebhook(
        replica.webhookUrl,
        WEBHOOK_SECRET,
        { event: delivery.event, id: delivery.id, body: delivery.body },
        timeoutMs === undefined ? {} : { timeoutMs },
      );
      return answer.status;
    },
    async idle() {
      const local = replicas.find((r) => r.app !== undefined);
      if (!local?.app) throw new Error('idle() needs an in-process replica');
      await local.app.warden.queue.idle();
    },
    async close() {
      await Promise.allSettled(replicas.splice(0).map((r) => r.stop()));
      await fake.close();
      await flushPrefix(redis, `${prefix}:`);
      await redis.quit();
      // A test passes only on requests GitHub would accept (test/fake-github/openapi.ts).
      fake.assertValid();
    },
  };
  const count = options.replicas ?? 0;
  await Promise.all(
    Array.from({ length: count }, () =>
      cluster.startReplica(options.main ? { main: options.main } : {}),
    ),
  );
  // Start-up resyncs queue nothing here (no markers yet), but let them finish.
  await Promise.all(replicas.map((r) => r.app?.warden.started));
  return cluster;
}

function inProcessReplica(name: string, port: number, app: RunningApp): Replica {
  const url = `http://127.0.0.1:${port}`;
  let stopped: Promise<void> | undefined;
  return {
    name,
    port,
    url,
    webhookUrl: `${url}/api/github/webhooks`,
    app,
    stop: () => {
      stopped ??= app.stop();
      return stopped;
    },
  };
}

const MAIN = fileURLToPath(new URL('../../src/app/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** How long a child replica may take to answer `/health`. */
const CHILD_START_MS = 60_000;

/** `npm start` in a child process; resolves once its `/health` answers 200. */
async function childReplica(
  name: string,
  port: number,
  env: Record<string, string>,
): Promise<Replica> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  // tsx compiles the app as the child starts: seconds on a busy machine, so a wide bound.
  const deadline = Date.now() + CHILD_START_MS;
  for (;;) {
    if (dead) throw new Error(`replica ${name} exited during start-up`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`replica ${name} did not answer /health within ${CHILD_START_MS} ms`);
    }
    const status = await fetch(`${url}/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    port,
    url,
    webhookUrl: `${url}/api/github/webhooks`,
    child,
    async stop() {
      if (!dead) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resolves with a child replica's exit code (or signal name) once it exited. */
export function exitOf(replica: Replica): Promise<number | string | null> {
  const child = replica.child;
  if (!child) throw new Error('not a child replica');
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.exitCode ?? child.signalCode);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
}

/**
 * A TCP proxy between replicas and Redis that a test can cut (every connection dropped, new
 * ones refused), stall (connections stay up, bytes are held: Redis "paused", as with
 * `CLIENT PAUSE` or a dead network path), and restore: Redis goes away for those replicas only.
 */
export interface RedisProxy {
  /** The test Redis's URL (credentials kept) with the proxy's address: `redis://127.0.0.1:<proxy port>/<db>`. */
  url(db: number): string;
  cut(): void;
  stall(): void;
  /** Accepts connections again; after a stall, sends what was held, in order. */
  restore(): void;
  close(): Promise<void>;
}

/** Starts a {@link RedisProxy} in front of the test Redis (`CLAIMS_TEST_REDIS_URL`). */
export async function startRedisProxy(): Promise<RedisProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  let stalled = false;
  let held: Array<() => void> = [];
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (stalled) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('error', () => to.destroy());
    from.on('close', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: REDIS_HOST, port: REDIS_PORT });
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const dropAll = () => {
    held = [];
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: (db) => {
      const url = new URL(redisUrl(db));
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut() {
      open = false;
      dropAll();
    },
    stall() {
      stalled = true;
    },
    restore() {
      open = true;
      stalled = false;
      const release = held;
      held = [];
      for (const send of release) send();
    },
    async close() {
      open = false;
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A claim comment by `session`, updated `at` (default now), `assignee=claim`. */
export function claim(session: string, at = new Date()): string {
  return renderClaimComment({
    session,
    lane: 'lane-1',
    branch: `feat/${session}`,
    started: at,
    updated: at,
    stage: 'claimed',
    assignee: 'claim',
  });
}

/** The captured `issue_comment.created` delivery of each comment, in the comments' order. */
export function createdDeliveries(fake: FakeGitHub, commentIds: readonly number[]) {
  return commentIds.map((id) => {
    const found = fake.deliveries.find(
      (d) =>
        d.event === 'issue_comment' &&
        d.action === 'created' &&
        (d.payload.comment as { id?: number } | undefined)?.id === id,
    );
    if (!found) throw new Error(`no issue_comment.created delivery for comment ${id}`);
    return found;
  });
}

/** Reconciles of issue `n` of acme/widgets so far: each reads the thread's comments once. */
export function threadReads(fake: FakeGitHub, n: number): number {
  return fake.count('GET', `/repos/${REPO}/issues/${n}/comments`);
}
