import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

/*
 * Real redis-server processes on loopback for the Sentinel, Cluster and TLS suites: free ports
 * asked of the OS, a temporary directory each, no persistence, every wait a condition. A
 * missing binary fails the suite with what to install; it never skips.
 */

const run = promisify(execFile);

/** What a suite fails with when redis-server is not on the machine. */
const NO_BINARY =
  "redis-server (and redis-cli) must be on PATH for the Sentinel, Cluster and TLS tests: install Debian's redis-server package (apt-get install -y redis-server; Redis 7 built with TLS) or a Redis 7 of your own";

/** One redis-server (or Sentinel) process. */
export interface RedisProcess {
  readonly port: number;
  /** Stops it at once (SIGKILL by default: a crash, nothing flushed). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  readonly alive: boolean;
}

/** Everything one suite started, stopped together in its afterAll, even after a failure. */
export class RedisServers {
  private readonly processes: RedisProcess[] = [];
  readonly dir = mkdtempSync(join(tmpdir(), 'claims-redis-'));

  /** Starts `redis-server` with `args` on a free port, no persistence; resolves once it answers. */
  async start(
    args: readonly string[] = [],
    options: { sentinel?: boolean; port?: number; ping?: (port: number) => Promise<boolean> } = {},
  ): Promise<RedisProcess> {
    const port = options.port ?? (await freePort());
    const dir = mkdtempSync(join(this.dir, `${port}-`));
    const base = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
    const argv = options.sentinel
      ? [sentinelConfig(dir, port, args), '--sentinel', ...base]
      : [...base, '--save', '', '--appendonly', 'no', ...args];
    const child = spawn('redis-server', argv, { stdio: 'ignore' });
    const process_ = tracked(child, port);
    this.processes.push(process_);
    const spawned = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', resolve);
    });
    if (spawned) throw new Error(NO_BINARY, { cause: spawned });
    const ping = options.ping ?? ((p: number) => answers(p));
    await waitUntil(
      () => (process_.alive ? ping(port) : Promise.resolve(false)),
      `redis on ${port}`,
    );
    return process_;
  }

  /** Kills every process still running and removes the directories. */
  async stop(): Promise<void> {
    await Promise.allSettled(this.processes.map((p) => p.kill('SIGKILL')));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function tracked(child: ChildProcess, port: number): RedisProcess {
  let alive = true;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      alive = false;
      resolve();
    });
    child.once('error', () => {
      alive = false;
      resolve();
    });
  });
  return {
    port,
    get alive() {
      return alive;
    },
    async kill(signal = 'SIGKILL') {
      if (alive) child.kill(signal);
      await exited;
    },
  };
}

// A Sentinel rewrites its configuration file, so it gets one of its own.
function sentinelConfig(dir: string, port: number, lines: readonly string[]): string {
  const file = join(dir, 'sentinel.conf');
  writeFileSync(file, [`port ${port}`, ...lines, ''].join('\n'));
  return file;
}

/** A free loopback port; with `bus`, port + 10000 (a Cluster node's bus) is free too. */
export async function freePort(bus = false): Promise<number> {
  for (;;) {
    const port = await listenFree(0);
    if (!bus) return port;
    if (port + 10_000 <= 65_535 && (await listenFree(port + 10_000).catch(() => 0)) !== 0) {
      return port;
    }
  }
}

function listenFree(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Runs one command on the server at `port`; null when it cannot be reached. */
export async function ask(
  port: number,
  command: string,
  ...args: string[]
): Promise<unknown | null> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    connectTimeout: 1000,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await redis.call(command, ...args);
  } catch {
    return null;
  } finally {
    redis.disconnect();
  }
}

async function answers(port: number): Promise<boolean> {
  return (await ask(port, 'PING')) === 'PONG';
}

/** Polls `check` until it holds; fails naming `what` after `timeoutMs` (generous: load). */
export async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A primary, its replica and three Sentinels watching them under {@link SENTINEL_NAME}. */
export interface SentinelGroup {
  primary: RedisProcess;
  readonly replica: RedisProcess;
  readonly sentinels: readonly RedisProcess[];
  /** `CLAIMS_REDIS_SENTINELS`. */
  readonly sentinelList: string;
  /** The port the Sentinels name as the primary now. */
  primaryPort(): Promise<number | null>;
}

export const SENTINEL_NAME = 'claims-primary';

/** Starts a {@link SentinelGroup}; resolves once the Sentinels see the replica and each other. */
export async function startSentinelGroup(servers: RedisServers): Promise<SentinelGroup> {
  const primary = await servers.start();
  const replica = await servers.start(['--replicaof', '127.0.0.1', String(primary.port)]);
  await waitUntil(
    async () =>
      String(await ask(replica.port, 'INFO', 'replication')).includes('master_link_status:up'),
    'the replica to sync',
  );
  const config = [
    `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${primary.port} 2`,
    `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
    `sentinel failover-timeout ${SENTINEL_NAME} 10000`,
  ];
  const sentinels: RedisProcess[] = [];
  for (let i = 0; i < 3; i++) sentinels.push(await servers.start(config, { sentinel: true }));
  const knows = async (port: number) => {
    const others = await ask(port, 'SENTINEL', 'SENTINELS', SENTINEL_NAME);
    const replicas = await ask(port, 'SENTINEL', 'REPLICAS', SENTINEL_NAME);
    return (
      Array.isArray(others) &&
      others.length === 2 &&
      Array.isArray(replicas) &&
      replicas.length === 1
    );
  };
  for (const s of sentinels) await waitUntil(() => knows(s.port), 'the Sentinels to meet');
  return {
    primary,
    replica,
    sentinels,
    sentinelList: sentinels.map((s) => `127.0.0.1:${s.port}`).join(','),
    async primaryPort() {
      const address = await ask(
        sentinels[0]!.port,
        'SENTINEL',
        'GET-MASTER-ADDR-BY-NAME',
        SENTINEL_NAME,
      );
      return Array.isArray(address) ? Number(address[1]) : null;
    },
  };
}

/** A six-node Redis Cluster: three primaries, one replica each. */
export interface RedisClusterNodes {
  readonly nodes: readonly RedisProcess[];
  /** `CLAIMS_REDIS_CLUSTER`. */
  readonly nodeList: string;
  /** The node that serves `key`'s slot as primary now. */
  primaryOf(key: string): Promise<RedisProcess>;
  /** Resolves once every live node says the cluster is ok and `key`'s slot has a live primary. */
  healthy(): Promise<void>;
}

/** Starts a {@link RedisClusterNodes} with `redis-cli --cluster create`. */
export async function startRedisCluster(servers: RedisServers): Promise<RedisClusterNodes> {
  const nodes: RedisProcess[] = [];
  for (let i = 0; i < 6; i++) {
    nodes.push(
      await servers.start(
        [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '2000',
          // A replica takes over however long it was cut off from its primary.
          '--cluster-replica-validity-factor',
          '0',
        ],
        { port: await freePort(true) },
      ),
    );
  }
  const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
  await run('redis-cli', [
    '--cluster',
    'create',
    ...addresses,
    '--cluster-replicas',
    '1',
    '--cluster-yes',
  ]).catch((error: unknown) => {
    throw new Error(`redis-cli --cluster create failed: ${String(error)}`);
  });
  const cluster: RedisClusterNodes = {
    nodes,
    nodeList: addresses.join(','),
    async primaryOf(key) {
      const live = nodes.find((n) => n.alive);
      if (!live) throw new Error('no cluster node is alive');
      const slot = Number(await ask(live.port, 'CLUSTER', 'KEYSLOT', key));
      const ranges = (await ask(live.port, 'CLUSTER', 'SLOTS')) as Array<
        [number, number, [string, number]]
      >;
      const range = ranges.find(([from, to]) => slot >= from && slot <= to);
      const port = range?.[2][1];
      const node = nodes.find((n) => n.port === port);
      if (!node) throw new Error(`no node serves slot ${slot}`);
      return node;
    },
    async healthy() {
      await waitUntil(async () => {
        for (const node of nodes.filter((n) => n.alive)) {
          const info = String(await ask(node.port, 'CLUSTER', 'INFO'));
          if (!info.includes('cluster_state:ok')) return false;
        }
        return true;
      }, 'the cluster to be ok');
    },
  };
  await cluster.healthy();
  // Every primary has its replica in sync, so a killed primary has someone to take over.
  await waitUntil(async () => {
    let synced = 0;
    for (const node of nodes) {
      const info = String(await ask(node.port, 'INFO', 'replication'));
      if (info.includes('role:slave') && info.includes('master_link_status:up')) synced++;
    }
    return synced === 3;
  }, 'the cluster replicas to sync');
  return cluster;
}

/** A throwaway CA and a certificate it signed for 127.0.0.1 and localhost (openssl). */
export interface Certificates {
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/** Makes {@link Certificates} in the servers' directory. */
export async function makeCertificates(servers: RedisServers): Promise<Certificates> {
  const at = (name: string) => join(servers.dir, name);
  const openssl = (...args: string[]) => run('openssl', args);
  await openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=claims test CA',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
  );
  await openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    at('redis.key'),
    '-out',
    at('redis.csr'),
  );
  writeFileSync(at('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await openssl(
    'x509',
    '-req',
    '-in',
    at('redis.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    at('san.ext'),
    '-out',
    at('redis.pem'),
  );
  return { caFile: at('ca.pem'), certFile: at('redis.pem'), keyFile: at('redis.key') };
}
