import { pino } from 'pino';
import type { ProbotOctokit } from 'probot';
import { afterEach, describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { WorkQueue } from '../../src/queue/queue.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { type ResyncDeps, resyncIfDue } from '../../src/sweep/resync.js';
import { flushPrefix, redisUrl, requireRedis, uniquePrefix } from '../helpers/redis.js';
import {
  type Cluster,
  claim,
  DB,
  REPO,
  type Replica,
  startCluster,
  threadReads,
  waitFor,
  waitUntil,
} from './harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const MINUTE = 60_000;

/** Sweeps this replica ran (it took the lease), from its histogram. */
async function sweepsRun(replica: Replica): Promise<number> {
  const histogram = await replica.app!.warden.metrics.sweepSeconds.get();
  return histogram.values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
}

/** Listings of the installation's repositories: one per resync of the installation. */
function repoListings(cluster: Cluster): number {
  return cluster.fake.count('GET', '/installation/repositories');
}

describe('sweep and resync, once per cluster', () => {
  it('three replicas sweep a due issue once, and sweep once per interval between them', async () => {
    let n = 0;
    let commentId = 0;
    // Stale window 10m; the claim is live when the start-up resync sees it, and stale once the
    // replicas' shared clock is moved on six minutes.
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const heartbeat = new Date(Date.now() - 5 * MINUTE);
    const started = performance.now();
    cluster = await startCluster({
      replicas: 3,
      main: { now },
      env: { CLAIMS_STALE_AFTER: '10m' },
      seed: (fake) => {
        n = fake.createIssue(REPO);
        commentId = fake.addComment(REPO, n, {
          author: 'alice',
          body: claim('s-1', heartbeat),
          createdAt: heartbeat,
        }).id;
      },
    });
    const { fake, replicas } = cluster;

    // The three started together: one start-up resync, which reconciled the issue once.
    expect(repoListings(cluster)).toBe(1);
    await cluster.idle();
    expect(threadReads(fake, n)).toBe(1);
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);

    // The sweep of one replica finds the claim stale: one more reconcile finalises it.
    offset = 6 * MINUTE;
    await waitFor(
      () => parseClaimMarker(fake.comment(commentId)?.body ?? '')?.stage === 'released',
      'the stale claim to be finalised',
    );
    await cluster.idle();
    // Two more sweeps: nothing is queued again.
    const sweepsSoFar = async () =>
      (await Promise.all(replicas.map(sweepsRun))).reduce((a, b) => a + b, 0);
    const before = await sweepsSoFar();
    await waitUntil(async () => (await sweepsSoFar()) >= before + 2, 'two more sweeps');
    await cluster.idle();
    expect(threadReads(fake, n)).toBe(2);
    expect(fake.issue(REPO, n)).toMatchObject({ labels: [], assignees: [] });

    // CLAIMS_SWEEP_INTERVAL is 1s; the lease lasts 0.9 s. Without it: three sweeps a second.
    // (An upper bound only: a loaded machine may sweep less often, never more.)
    const elapsedMs = performance.now() - started;
    const sweeps = (await Promise.all(replicas.map(sweepsRun))).reduce((a, b) => a + b, 0);
    expect(sweeps).toBeLessThanOrEqual(Math.ceil(elapsedMs / 900) + 1);
    console.info(
      `[replicas] ${sweeps} sweeps in ${(elapsedMs / 1000).toFixed(1)} s across 3 replicas (interval 1 s)`,
    );
  });

  it('a replica joining a running cluster skips the start-up resync; a cluster back from down does not', async () => {
    cluster = await startCluster({ replicas: 2 });
    expect(repoListings(cluster)).toBe(1);

    await cluster.startReplica();
    await cluster.replicas[2]!.app!.warden.started;
    expect(repoListings(cluster)).toBe(1);

    // Stopped gracefully, the last holder releases the presence lease at once.
    for (const replica of cluster.replicas.splice(0)) await replica.stop();
    const back = await cluster.startReplica();
    await back.app!.warden.started;
    expect(repoListings(cluster)).toBe(2);
  });

  it('of replicas whose resync timers fire together, one resyncs per interval', async () => {
    const redis = await requireRedis(DB);
    const prefix = `${uniquePrefix('cw-replicas-resync')}:`;
    const stores = [1, 2, 3].map(() => new RedisStore({ target: redisUrl(DB), prefix }));
    let listings = 0;
    const appOctokit = async () =>
      ({
        paginate: async () => {
          listings += 1;
          return [];
        },
        rest: { apps: { listInstallations: {} } },
      }) as unknown as ProbotOctokit;
    const deps = (store: RedisStore): ResyncDeps => ({
      store,
      queue: {} as WorkQueue,
      log: pino({ level: 'silent' }),
      now: () => new Date(),
      appOctokit,
      octokitFor: () => Promise.reject(new Error('no installations')),
      staleAfterFor: async () => null,
    });
    try {
      const first = await Promise.all(stores.map((store) => resyncIfDue(deps(store), MINUTE)));
      expect(first.filter((result) => result !== null)).toHaveLength(1);
      const again = await Promise.all(stores.map((store) => resyncIfDue(deps(store), MINUTE)));
      expect(again).toEqual([null, null, null]);
      expect(listings).toBe(1);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await flushPrefix(redis, prefix);
      await redis.quit();
    }
  });
});
