import { afterEach, describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import {
  type Cluster,
  claim,
  createdDeliveries,
  exitOf,
  FAST_LOCK,
  REPO,
  startCluster,
  threadReads,
  waitFor,
} from './harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

/** Resolves once a child replica's start-up resync has read the repository's comments. */
async function startUpResyncDone(cluster: Cluster): Promise<void> {
  await waitFor(
    () => cluster.fake.count('GET', `/repos/${REPO}/issues/comments`) >= 1,
    'the start-up resync',
  );
}

/**
 * Alice holds, bob lost the race: a reconcile edits bob's claim, labels, assigns alice.
 * Posted after the replicas' start-up resync, so the delivery is the only reconcile request.
 */
function raceOnOneIssue(cluster: Cluster) {
  const { fake } = cluster;
  const n = fake.createIssue(REPO);
  const alice = fake.addComment(REPO, n, { author: 'alice', body: claim('s-alice') }).id;
  const bob = fake.addComment(REPO, n, { author: 'bob', body: claim('s-bob') }).id;
  const [delivery] = createdDeliveries(fake, [bob]);
  return { n, alice, bob, delivery: delivery! };
}

function converged(cluster: Cluster, race: ReturnType<typeof raceOnOneIssue>): boolean {
  const { fake } = cluster;
  const issue = fake.issue(REPO, race.n);
  return (
    issue.labels.includes('status:in-progress') &&
    issue.assignees.includes('alice') &&
    parseClaimMarker(fake.comment(race.bob)?.body ?? '')?.stage === 'released' &&
    parseClaimMarker(fake.comment(race.alice)?.body ?? '')?.stage === 'claimed'
  );
}

describe('replicas that stop', () => {
  it('a replica killed mid-reconcile: another finishes the work and the issue converges', async () => {
    cluster = await startCluster({ env: FAST_LOCK });
    const { fake } = cluster;
    const doomed = await cluster.spawnReplica({ name: 'doomed' });
    await startUpResyncDone(cluster);
    const race = raceOnOneIssue(cluster);
    // The label write hangs long enough to kill its replica while it waits (bob's claim was
    // already finalised: the reconcile is half done).
    const stuck = fake.inject({
      method: 'POST',
      path: `/repos/${REPO}/issues/${race.n}/labels`,
      delayMs: 3000,
    });
    expect(await cluster.send(race.delivery, doomed)).toBe(200);
    await waitFor(() => stuck.hits === 1, 'the label write to be in flight');
    expect(parseClaimMarker(fake.comment(race.bob)?.body ?? '')?.stage).toBe('released');
    doomed.child!.kill('SIGKILL');
    await exitOf(doomed);
    const killedAt = performance.now();

    const survivor = await cluster.startReplica({ name: 'survivor' });
    await waitFor(() => converged(cluster!, race), 'the issue to converge');
    const tookMs = performance.now() - killedAt;
    await cluster.idle();

    expect(converged(cluster, race)).toBe(true);
    expect(fake.issue(REPO, race.n)).toMatchObject({
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
    // The survivor did not finalise bob's claim again: it was done before the kill.
    expect(fake.count('PATCH', `/repos/${REPO}/issues/comments/${race.bob}`)).toBe(1);
    expect(survivor.app).toBeDefined();
    console.info(
      `[replicas] killed mid-reconcile: converged ${(tookMs / 1000).toFixed(1)} s after the kill (CLAIMS_QUEUE_LOCK=2s)`,
    );
  });

  it('SIGTERM finishes the running reconcile before the process exits', async () => {
    cluster = await startCluster({ env: FAST_LOCK });
    const { fake, redis, prefix } = cluster;
    const replica = await cluster.spawnReplica({ name: 'leaving' });
    await startUpResyncDone(cluster);
    const race = raceOnOneIssue(cluster);
    const slow = fake.inject({
      method: 'POST',
      path: `/repos/${REPO}/issues/${race.n}/labels`,
      delayMs: 1500,
    });
    expect(await cluster.send(race.delivery, replica)).toBe(200);
    await waitFor(() => slow.hits === 1, 'the label write to be in flight');
    expect(converged(cluster, race)).toBe(false);

    replica.child!.kill('SIGTERM');
    expect(await exitOf(replica)).toBe(0);

    // It exited only after its reconcile was done, and left no job behind.
    expect(converged(cluster, race)).toBe(true);
    expect(threadReads(fake, race.n)).toBe(1);
    const queue = `${prefix}:reconcile`;
    expect(await redis.llen(`${queue}:active`)).toBe(0);
    expect(await redis.llen(`${queue}:wait`)).toBe(0);
    expect(await redis.zcard(`${queue}:delayed`)).toBe(0);
  });
});
