import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERY_CLAIM_MS } from '../../src/app/deliveries.js';
import { logSink } from '../helpers/app-harness.js';
import {
  type Cluster,
  claim,
  createdDeliveries,
  DB,
  exitOf,
  REPO,
  type RedisProxy,
  type Replica,
  startCluster,
  startRedisProxy,
  threadReads,
  waitFor,
  waitUntil,
} from './harness.js';

let cluster: Cluster | undefined;
let proxy: RedisProxy | undefined;
afterEach(async () => {
  proxy?.restore();
  await cluster?.close();
  await proxy?.close();
  cluster = undefined;
  proxy = undefined;
});

async function health(replica: Replica): Promise<number> {
  return (await fetch(`${replica.url}/health`)).status;
}

describe('when Redis is unreachable', () => {
  it('a webhook is answered 503 at once, /health is 503, and a redelivery converges once Redis is back', async () => {
    proxy = await startRedisProxy();
    cluster = await startCluster({ replicas: 1, redisUrl: proxy.url(DB) });
    const { fake, redis, prefix } = cluster;
    const replica = cluster.replicas[0]!;
    const n = fake.createIssue(REPO);
    const { id } = fake.addComment(REPO, n, { author: 'alice', body: claim('s-1') });
    const [delivery] = createdDeliveries(fake, [id]);
    fake.clearRequests();

    proxy.cut();
    const sentAt = performance.now();
    const status = await cluster.send(delivery!, replica);
    const answeredMs = performance.now() - sentAt;
    expect(status).toBe(503);
    expect(answeredMs).toBeLessThan(2000);
    expect(await health(replica)).toBe(503);
    // Nothing written: no delivery id, no request, no GitHub call.
    expect(await redis.exists(`${prefix}:delivery:${delivery!.id}`)).toBe(0);
    expect(await redis.keys(`${prefix}:reconcile:cw:pending*`)).toEqual([]);
    expect(fake.requests.filter((r) => !r.path.startsWith('/app/'))).toEqual([]);

    proxy.restore();
    const restoredAt = performance.now();
    let up = 0;
    while (up !== 200 && performance.now() - restoredAt < 10_000) {
      up = await health(replica);
      if (up !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(up).toBe(200);
    const recoveredMs = performance.now() - restoredAt;

    expect(await cluster.send(delivery!, replica)).toBe(200);
    await cluster.idle();
    expect(threadReads(fake, n)).toBe(1);
    expect(fake.issue(REPO, n)).toMatchObject({
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
    console.info(
      `[replicas] Redis cut: webhook answered 503 in ${Math.round(answeredMs)} ms; ` +
        `/health 200 again ${Math.round(recoveredMs)} ms after Redis came back`,
    );
  });

  it('Redis stalled (not answering): a webhook is answered 503 well within GitHub’s 10 s, and what it half-sent is undone', async () => {
    proxy = await startRedisProxy();
    cluster = await startCluster({ replicas: 1, redisUrl: proxy.url(DB) });
    const { fake, redis, prefix } = cluster;
    const replica = cluster.replicas[0]!;
    const n = fake.createIssue(REPO);
    const { id } = fake.addComment(REPO, n, { author: 'alice', body: claim('s-1') });
    const [delivery] = createdDeliveries(fake, [id]);
    let answeredMs = 0;

    proxy.stall();
    const sentAt = performance.now();
    const [status, healthStatus] = await Promise.all([
      cluster.send(delivery!, replica).finally(() => {
        answeredMs = performance.now() - sentAt;
      }),
      health(replica),
    ]);
    expect(status).toBe(503);
    // The store's command timeout (2 s), not @octokit/webhooks' 9 s "202 still processing".
    expect(answeredMs).toBeLessThan(4000);
    expect(healthStatus).toBe(503);

    // Redis answers again and runs what was held: the delivery's SET, then its undoing DEL.
    proxy.restore();
    await waitUntil(
      async () => (await redis.exists(`${prefix}:delivery:${delivery!.id}`)) === 0,
      'what the stalled webhook half-sent to be undone',
    );
    expect(await cluster.send(delivery!, replica)).toBe(200);
    await cluster.idle();
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
    console.info(`[replicas] Redis stalled: webhook answered 503 in ${Math.round(answeredMs)} ms`);
  });

  it('a replica started while Redis is away waits for it before taking webhooks', async () => {
    proxy = await startRedisProxy();
    proxy.cut();
    cluster = await startCluster({ redisUrl: proxy.url(DB) });
    let started = false;
    const lines: string[] = [];
    const starting = cluster
      .startReplica({ env: { LOG_LEVEL: 'warn' }, main: { logDestination: logSink(lines) } })
      .then((replica) => {
        started = true;
        return replica;
      });
    // The replica says it is waiting once it found Redis away: it has not started by then.
    await waitFor(
      () => lines.some((line) => line.includes('waiting for Redis (CLAIMS_REDIS_URL) to answer')),
      'the replica to say it waits for Redis',
    );
    expect(started).toBe(false);
    proxy.restore();
    const replica = await starting;
    expect(await health(replica)).toBe(200);
  });

  it('a delivery whose request could not be queued is forgotten, so its redelivery runs', async () => {
    cluster = await startCluster({ replicas: 1 });
    const { fake, redis, prefix } = cluster;
    const replica = cluster.replicas[0]!;
    const queue = replica.app!.warden.queue;
    const n = fake.createIssue(REPO);
    const { id } = fake.addComment(REPO, n, { author: 'alice', body: claim('s-1') });
    const [delivery] = createdDeliveries(fake, [id]);

    // Redis goes away between recording the delivery and queueing its request.
    const enqueue = queue.enqueue;
    queue.enqueue = () => Promise.reject(new Error('Connection is closed.'));
    expect(await cluster.send(delivery!, replica)).toBe(503);
    queue.enqueue = enqueue;
    expect(await redis.exists(`${prefix}:delivery:${delivery!.id}`)).toBe(0);

    expect(await cluster.send(delivery!, replica)).toBe(200);
    await cluster.idle();
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
    // Once queued, the id is kept for GitHub's redelivery window, not the short claim.
    const ttl = await redis.pttl(`${prefix}:delivery:${delivery!.id}`);
    expect(ttl).toBeGreaterThan(DELIVERY_CLAIM_MS);
  });

  it.each([
    ['paused (not answering)', (p: RedisProxy) => p.stall()],
    ['killed (connections dropped, none taken)', (p: RedisProxy) => p.cut()],
  ])(
    'Redis %s: SIGTERM exits within CLAIMS_SHUTDOWN_TIMEOUT',
    async (_how, breakRedis) => {
      proxy = await startRedisProxy();
      cluster = await startCluster({ redisUrl: proxy.url(DB) });
      const replica = await cluster.spawnReplica({ env: { CLAIMS_SHUTDOWN_TIMEOUT: '3s' } });
      breakRedis(proxy);
      // Let the replica notice: a command in flight, a reconnect under way.
      await waitUntil(async () => (await health(replica)) === 503, '/health to say 503');

      const signalledAt = performance.now();
      replica.child!.kill('SIGTERM');
      const exit = await Promise.race([
        exitOf(replica),
        new Promise<'still running'>((resolve) => setTimeout(resolve, 15_000, 'still running')),
      ]);
      const exitedMs = performance.now() - signalledAt;

      expect(exit).not.toBe('still running');
      // The bound plus the time a loaded machine takes to run the exit.
      expect(exitedMs).toBeLessThan(3000 + 4000);
      console.info(
        `[replicas] Redis ${_how}: SIGTERM to exit ${Math.round(exitedMs)} ms (code ${exit})`,
      );
    },
    120_000,
  );
});
