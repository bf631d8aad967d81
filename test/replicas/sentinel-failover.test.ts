/**
 * docs/replicas.md "Failover": three replicas on a Sentinel-managed primary; the primary is
 * killed (SIGKILL) in the middle of a claim race and a stream of claims. A replica is
 * promoted, the app follows it by itself (503 meanwhile), and the run ends as one without
 * the failover: one holder per issue, every comment, finalisation and event once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../events/receiver.js';
import {
  RedisServers,
  SENTINEL_NAME,
  type SentinelGroup,
  startSentinelGroup,
  waitUntil,
} from '../helpers/redis-servers.js';
import { claimStorm, comparable, RACERS } from './failover-scenario.js';
import { type Cluster, startCluster } from './harness.js';

const SECRET = 'sentinel-failover-secret-'.padEnd(40, 'x');

const servers = new RedisServers();
let group: SentinelGroup;
let receiver: Receiver;
let cluster: Cluster | undefined;

beforeAll(async () => {
  group = await startSentinelGroup(servers);
  receiver = await startReceiver();
}, 120_000);

afterAll(async () => {
  try {
    await cluster?.close();
    await receiver?.close();
  } finally {
    await servers.stop();
  }
});

describe('Redis Sentinel', () => {
  it('a primary killed mid-run: the replicas follow the promotion and converge as without it', async () => {
    cluster = await startCluster({
      replicas: 3,
      redisEnv: {
        CLAIMS_REDIS_SENTINELS: group.sentinelList,
        CLAIMS_REDIS_SENTINEL_NAME: SENTINEL_NAME,
      },
      env: {
        CLAIMS_EVENTS_URL: receiver.url,
        CLAIMS_EVENTS_SECRET: SECRET,
        CLAIMS_QUEUE_LOCK: '2s',
        // Paced, so the race's reconcile is still writing when the primary dies.
        CLAIMS_WRITE_PACING_MS: '100',
      },
      seed: (fake) => {
        for (const racer of RACERS) fake.addUser(racer, { association: 'COLLABORATOR' });
      },
    });
    const calm = await claimStorm(cluster, receiver);
    const stormy = await claimStorm(cluster, receiver, async () => {
      const old = group.primary.port;
      await group.primary.kill('SIGKILL');
      await waitUntil(
        async () => ![null, old].includes(await group.primaryPort()),
        'the Sentinels to promote the replica',
      );
    });

    expect(calm.holders.every((held) => held === 1)).toBe(true);
    expect(stormy.holders.every((held) => held === 1)).toBe(true);
    expect(comparable(stormy)).toEqual(comparable(calm));
    expect(stormy.enforcedAgainMs).not.toBeNull();
    console.info(
      `[sentinel] failover: ${stormy.refused} webhooks answered 503 meanwhile; first claim enforced ${stormy.enforcedAgainMs} ms after the kill; ${JSON.stringify(comparable(stormy))}`,
    );
  }, 180_000);
});
