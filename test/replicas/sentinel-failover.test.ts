/**
 * docs/replicas.md "Failover": three replicas on a Sentinel-managed primary; the primary is
 * killed (SIGKILL) in the middle of a claim race and a stream of claims. A replica is
 * promoted, the app follows it by itself (503 meanwhile), and the run ends as one without
 * the failover: one holder per issue, every comment, finalisation and event once.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type Receiver, startReceiver } from '../events/receiver.js';
import {
  RedisServers,
  SENTINEL_NAME,
  type SentinelGroup,
  startSentinelGroup,
  waitUntil,
} from '../helpers/redis-servers.js';
import { claimStorm, expectSameAsCalm, failoverReplicas } from './failover-scenario.js';
import type { Cluster } from './harness.js';

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
    cluster = await failoverReplicas(
      {
        CLAIMS_REDIS_SENTINELS: group.sentinelList,
        CLAIMS_REDIS_SENTINEL_NAME: SENTINEL_NAME,
      },
      receiver,
      SECRET,
    );
    const calm = await claimStorm(cluster, receiver);
    const stormy = await claimStorm(cluster, receiver, async () => {
      const old = group.primary.port;
      await group.primary.kill('SIGKILL');
      await waitUntil(
        async () => ![null, old].includes(await group.primaryPort()),
        'the Sentinels to promote the replica',
      );
    });

    expectSameAsCalm('sentinel', calm, stormy);
  }, 180_000);
});
