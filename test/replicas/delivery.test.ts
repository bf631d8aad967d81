import { afterEach, describe, expect, it } from 'vitest';
import {
  type Cluster,
  claim,
  createdDeliveries,
  REPO,
  startCluster,
  threadReads,
} from './harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('delivery ids across replicas', () => {
  it('the same delivery sent to two replicas causes one reconcile', async () => {
    cluster = await startCluster({ replicas: 3 });
    const { fake, replicas } = cluster;
    const n = fake.createIssue(REPO);
    const { id } = fake.addComment(REPO, n, { author: 'alice', body: claim('s-1') });
    const [delivery] = createdDeliveries(fake, [id]);
    fake.clearRequests();

    // At once to two replicas, as a redelivery racing the original would arrive.
    const statuses = await Promise.all([
      cluster.send(delivery!, replicas[0]!),
      cluster.send(delivery!, replicas[1]!),
    ]);
    await cluster.idle();
    // And once more, later, to the third.
    statuses.push(await cluster.send(delivery!, replicas[2]!));
    await cluster.idle();

    expect(statuses).toEqual([200, 200, 200]);
    expect(threadReads(fake, n)).toBe(1);
    expect(fake.issue(REPO, n)).toMatchObject({
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
  });
});
