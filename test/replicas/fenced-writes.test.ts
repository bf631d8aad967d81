import { afterEach, describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import {
  type Cluster,
  claim,
  createdDeliveries,
  FAST_LOCK,
  REPO,
  startCluster,
  waitFor,
  waitUntil,
} from './harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

/** A replica's reconciles that stopped writing when their lease ran out, from its `/metrics`. */
async function lockLostReconciles(url: string): Promise<number> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const line = text
    .split('\n')
    .find((l) => l.startsWith('claims_reconciles_total{outcome="lock-lost"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('fenced writes: a replica whose issue lock passed to another', () => {
  it('sends none of the writes it planned before it froze, and the issue stays as the new holder made it', async () => {
    cluster = await startCluster({ env: FAST_LOCK });
    const { fake } = cluster;
    const frozen = await cluster.spawnReplica({ name: 'frozen' });
    await waitFor(
      () => fake.count('GET', `/repos/${REPO}/issues/comments`) >= 1,
      'the start-up resync of the replica that will freeze',
    );
    const n = fake.createIssue(REPO);
    const bob = fake.addComment(REPO, n, { author: 'bob', body: claim('s-bob') }).id;
    // The replica reads the thread, and its process stops (SIGSTOP: a paused container, a
    // frozen event loop) as GitHub answers: it has the thread, and has not written yet.
    const read = fake.inject({
      method: 'GET',
      path: `/repos/${REPO}/issues/${n}/comments`,
      hold: async () => {
        frozen.child!.kill('SIGSTOP');
      },
    });
    const [bobDelivery] = createdDeliveries(fake, [bob]);
    expect(await cluster.send(bobDelivery!, frozen)).toBe(200);
    await waitFor(() => read.hits === 1, 'the frozen replica to read the thread');

    // Another replica takes the issue once the lease lapsed: alice's later claim loses to bob's,
    // the label and bob's assignment go on, once each.
    const other = await cluster.startReplica({ name: 'other' });
    const alice = fake.addComment(REPO, n, { author: 'alice', body: claim('s-alice') }).id;
    const [aliceDelivery] = createdDeliveries(fake, [alice]);
    expect(await cluster.send(aliceDelivery!, other)).toBe(200);
    const madeTrue = () => {
      const issue = fake.issue(REPO, n);
      return (
        issue.labels.includes('status:in-progress') &&
        issue.assignees.includes('bob') &&
        parseClaimMarker(fake.comment(alice)?.body ?? '')?.stage === 'released'
      );
    };
    await waitFor(madeTrue, 'the other replica to make the issue true');
    const labelWrites = () => fake.count('POST', `/repos/${REPO}/issues/${n}/labels`);
    const assignWrites = () => fake.count('POST', `/repos/${REPO}/issues/${n}/assignees`);
    expect([labelWrites(), assignWrites()]).toEqual([1, 1]);

    // The frozen replica wakes with the thread it read before alice's claim and before the
    // label. Its lease is over: its reconcile fails without writing (and is tried again, on
    // what GitHub shows now). Unfenced, it would label and assign once more.
    frozen.child!.kill('SIGCONT');
    await waitUntil(
      async () => labelWrites() > 1 || (await lockLostReconciles(frozen.url)) >= 1,
      'the frozen replica to end its reconcile',
    );
    await cluster.idle();
    expect(await lockLostReconciles(frozen.url)).toBeGreaterThanOrEqual(1);
    expect([labelWrites(), assignWrites()]).toEqual([1, 1]);
    expect(madeTrue()).toBe(true);
    expect(parseClaimMarker(fake.comment(bob)?.body ?? '')?.stage).toBe('claimed');
  }, 90_000);
});
