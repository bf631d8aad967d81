/**
 * docs/replicas.md "Failover": three replicas on a six-node Redis Cluster; the primary of
 * the shard that holds the app's slot is killed (SIGKILL) in the middle of a claim race and a
 * stream of claims. Its replica takes over, the app follows the new slot map by itself (503
 * meanwhile), nothing fails with CROSSSLOT, and the run ends as one without the failover.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../events/receiver.js';
import {
  ask,
  type RedisClusterNodes,
  RedisServers,
  startRedisCluster,
  waitUntil,
} from '../helpers/redis-servers.js';
import { claimStorm, expectSameAsCalm, failoverReplicas } from './failover-scenario.js';
import { type Cluster, startCluster } from './harness.js';

const SECRET = 'cluster-failover-secret-'.padEnd(40, 'x');

const servers = new RedisServers();
let nodes: RedisClusterNodes;
let receiver: Receiver;
let cluster: Cluster | undefined;

beforeAll(async () => {
  nodes = await startRedisCluster(servers);
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

describe('Redis Cluster', () => {
  it('a primary that may evict keys stops start-up, whichever shard it serves', async () => {
    const roles = await Promise.all(nodes.nodes.map((n) => ask(n.port, 'ROLE')));
    const primaries = nodes.nodes.filter((_, i) => (roles[i] as unknown[])[0] === 'master');
    const evicting = primaries[primaries.length - 1]!;
    await ask(evicting.port, 'CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru');
    try {
      const refused = await startCluster({ redisEnv: { CLAIMS_REDIS_CLUSTER: nodes.nodeList } });
      try {
        await expect(refused.startReplica()).rejects.toThrow(
          `Redis at 127.0.0.1:${evicting.port} has maxmemory-policy volatile-lru; claim-warden needs noeviction`,
        );
      } finally {
        await refused.close();
      }
    } finally {
      await ask(evicting.port, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    }
  }, 60_000);

  it("the app's shard primary killed mid-run: the replicas follow the new primary and converge as without it", async () => {
    cluster = await failoverReplicas({ CLAIMS_REDIS_CLUSTER: nodes.nodeList }, receiver, SECRET);
    // Every key of the app is `{prefix}:…`: one slot, one shard.
    const tag = `{${cluster.prefix}}`;
    const calm = await claimStorm(cluster, receiver);
    const stormy = await claimStorm(cluster, receiver, async () => {
      const doomed = await nodes.primaryOf(tag);
      await doomed.kill('SIGKILL');
      await waitUntil(
        async () => (await nodes.primaryOf(tag).catch(() => doomed)) !== doomed,
        'a replica to take over the shard',
      );
    });

    expectSameAsCalm('cluster', calm, stormy);
  }, 180_000);
});
