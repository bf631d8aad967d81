import type { Redis } from 'ioredis';
import { ProbotOctokit } from 'probot';
import { BullQueue } from '../src/queue/bullmq-queue.js';
import { startReceiver } from '../test/events/receiver.js';
import { flushPrefix, redisUrl, requireRedis, uniquePrefix } from '../test/helpers/redis.js';
import {
  RedisServers,
  SENTINEL_NAME,
  startRedisCluster,
  startSentinelGroup,
  waitUntil,
} from '../test/helpers/redis-servers.js';
import { claimStorm, RACERS, type StormOutcome } from '../test/replicas/failover-scenario.js';
import { claim, createdDeliveries, REPO, startCluster } from '../test/replicas/harness.js';
import { converge, type Run } from './convergence-bench.js';
import { fmt, type Section } from './section.js';

/** The bench's Redis database on the test Redis (the suites use 5, 6 and 8; fairness 9). */
const DB = 10;
const silent = { warn() {}, error() {} };
const SECRET = 'redis-ha-bench-secret-'.padEnd(40, 'x');

/**
 * The failover scenario of test/replicas/{sentinel,cluster}-failover.test.ts with the default
 * CLAIMS_QUEUE_LOCK: three replicas, a race of 20 sessions and a stream of claims, the primary
 * killed (SIGKILL) once the race is under way.
 */
async function failover(
  redisEnv: Record<string, string>,
  kill: (prefix: string) => Promise<void>,
): Promise<StormOutcome> {
  const receiver = await startReceiver();
  const cluster = await startCluster({
    replicas: 3,
    redisEnv,
    env: {
      CLAIMS_EVENTS_URL: receiver.url,
      CLAIMS_EVENTS_SECRET: SECRET,
      CLAIMS_WRITE_PACING_MS: '100',
    },
    seed: (fake) => {
      for (const racer of RACERS) fake.addUser(racer, { association: 'COLLABORATOR' });
    },
  });
  try {
    return await claimStorm(cluster, receiver, () => kill(cluster.prefix));
  } finally {
    await cluster.close();
    await receiver.close();
  }
}

async function sentinelFailover(): Promise<StormOutcome> {
  const servers = new RedisServers();
  try {
    const group = await startSentinelGroup(servers);
    return await failover(
      { CLAIMS_REDIS_SENTINELS: group.sentinelList, CLAIMS_REDIS_SENTINEL_NAME: SENTINEL_NAME },
      async () => {
        const old = group.primary.port;
        await group.primary.kill('SIGKILL');
        await waitUntil(async () => ![null, old].includes(await group.primaryPort()), 'promotion');
      },
    );
  } finally {
    await servers.stop();
  }
}

async function clusterFailover(): Promise<StormOutcome> {
  const servers = new RedisServers();
  try {
    const nodes = await startRedisCluster(servers);
    return await failover({ CLAIMS_REDIS_CLUSTER: nodes.nodeList }, async (prefix) => {
      const doomed = await nodes.primaryOf(`{${prefix}}`);
      await doomed.kill('SIGKILL');
    });
  } finally {
    await servers.stop();
  }
}

/** The 50-installation convergence of the convergence bench, on one Redis and on a Cluster. */
async function convergenceOnRedis(): Promise<{ single: Run; cluster: Run }> {
  const prefix = uniquePrefix('bench-ha');
  const redis = await requireRedis(DB);
  let single: Run;
  try {
    single = await converge('one Redis (CLAIMS_REDIS_URL)', ProbotOctokit, {
      CLAIMS_REDIS_URL: redisUrl(DB),
      CLAIMS_REDIS_PREFIX: prefix,
    });
  } finally {
    await flushPrefix(redis, `${prefix}:`);
    await redis.quit();
  }
  const servers = new RedisServers();
  try {
    const nodes = await startRedisCluster(servers);
    const cluster = await converge('six-node Redis Cluster (CLAIMS_REDIS_CLUSTER)', ProbotOctokit, {
      CLAIMS_REDIS_CLUSTER: nodes.nodeList,
    });
    return { single, cluster };
  } finally {
    await servers.stop();
  }
}

/** MEMORY USAGE summed over every key under `pattern` (SCAN, so nothing is blocked). */
async function bytesUnder(redis: Redis, pattern: string): Promise<{ bytes: number; keys: number }> {
  let cursor = '0';
  let bytes = 0;
  let keys = 0;
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const key of found) {
      bytes += Number((await redis.memory('USAGE', key, 'SAMPLES', '0')) ?? 0);
      keys++;
    }
  } while (cursor !== '0');
  return { bytes, keys };
}

const MEASURED = 200;

/**
 * Bytes Redis keeps per claimed issue once reconciled (every key of the app: the index, the
 * issue's records, its delivery id for three days; BullMQ's finished jobs are removed), and
 * per queued reconcile (its job and the per-issue records) with no worker taking them.
 */
async function memoryPerClaimAndJob(): Promise<{ perClaim: number; perJob: number }> {
  const redis = await requireRedis(DB);
  const cluster = await startCluster({ replicas: 1 });
  let perClaim: number;
  try {
    const { fake } = cluster;
    const ids: number[] = [];
    for (let i = 0; i < MEASURED; i++) {
      const n = fake.createIssue(REPO, { title: `Measured ${i}` });
      ids.push(fake.addComment(REPO, n, { author: 'alice', body: claim(`m-${i}`) }).id);
    }
    for (const delivery of createdDeliveries(fake, ids))
      await cluster.send(delivery, cluster.replicas[0]!);
    await cluster.idle();
    perClaim = (await bytesUnder(cluster.redis, `${cluster.prefix}:*`)).bytes / MEASURED;
  } finally {
    await cluster.close();
  }
  const prefix = uniquePrefix('bench-jobs');
  const queue = new BullQueue({ connection: redisUrl(DB), prefix, logger: silent });
  try {
    for (let i = 0; i < MEASURED; i++) {
      await queue.enqueue({
        key: { installationId: 1000 + i, owner: 'o', repo: 'r', number: 1 },
        hints: [],
        reason: 'issue_comment.created',
      });
    }
    const perJob = (await bytesUnder(redis, `${prefix}:*`)).bytes / MEASURED;
    return { perClaim, perJob };
  } finally {
    await queue.close();
    await flushPrefix(redis, `${prefix}:`);
    await redis.quit();
  }
}

/**
 * Redis made highly available (docs/replicas.md "Failover"): how long claims wait after the
 * primary dies, and whether a Cluster costs the convergence figure anything.
 */
export async function benchRedisHa(): Promise<Section> {
  const sentinel = await sentinelFailover();
  const cluster = await clusterFailover();
  const { single, cluster: onCluster } = await convergenceOnRedis();
  const memory = await memoryPerClaimAndJob();
  const failoverRow = (name: string, run: StormOutcome) => [
    name,
    run.enforcedAgainMs === null ? '-' : `${fmt(run.enforcedAgainMs / 1000, 1)} s`,
    String(run.refused),
    run.holders.every((held) => held === 1) ? 'yes' : 'NO',
  ];
  const ratio = onCluster.seconds / single.seconds;
  return {
    id: 'redis-ha',
    title: 'Redis failover and Cluster',
    notes: [
      'Failover: 3 replicas, 20 sessions racing for one issue, then 8 claims one after another;',
      'the primary (Sentinel: down-after-milliseconds 1000) or the app shard’s primary',
      '(cluster-node-timeout 2000) killed with SIGKILL once the race is under way. Time from',
      'the kill to the first claim sent after it being enforced; CLAIMS_QUEUE_LOCK default,',
      'CLAIMS_WRITE_PACING_MS=100.',
      `Convergence: the convergence bench's 50 installations on one Redis and on a six-node`,
      `Cluster: ${fmt(onCluster.seconds, 1)} s vs ${fmt(single.seconds, 1)} s, ${fmt(ratio, 2)}× (goal: within 1.2×).`,
      `Memory (MEMORY USAGE over the app's keys, ${MEASURED} of each): ${fmt(memory.perClaim)} bytes per`,
      `claimed issue once reconciled, ${fmt(memory.perJob)} bytes per queued reconcile.`,
    ],
    columns: [
      'run',
      'first claim enforced after the kill',
      'webhooks answered 503',
      'one holder each',
    ],
    rows: [
      failoverRow('Sentinel: primary killed', sentinel),
      failoverRow('Cluster: shard primary killed', cluster),
      [`convergence, ${single.variant}`, `${fmt(single.seconds, 1)} s to converge`, '-', '-'],
      [`convergence, ${onCluster.variant}`, `${fmt(onCluster.seconds, 1)} s to converge`, '-', '-'],
    ],
    data: { sentinel, cluster, convergence: { single, cluster: onCluster, ratio }, memory },
  };
}
