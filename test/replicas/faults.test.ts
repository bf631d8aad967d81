/** Issue 10 #4 and #5 on Redis: what one replica noted, another acts on. */
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, claim, createdDeliveries, REPO, startCluster } from './harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('replicas sharing Redis', () => {
  it('a claimant one replica assigned is unassigned by another once she is no collaborator and bob holds', async () => {
    cluster = await startCluster();
    const { fake } = cluster;
    const first = await cluster.startReplica({ name: 'first' });
    const second = await cluster.startReplica({ name: 'second' });
    const n = fake.createIssue(REPO);
    const alice = fake.addComment(REPO, n, { author: 'alice', body: claim('s-alice') }).id;
    expect(await cluster.send(createdDeliveries(fake, [alice])[0]!, first)).toBe(200);
    await cluster.idle();
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);

    fake.addUser('alice', { association: 'NONE' });
    const bob = fake.addComment(REPO, n, { author: 'bob', body: claim('s-bob') }).id;
    expect(await cluster.send(createdDeliveries(fake, [bob])[0]!, second)).toBe(200);
    await cluster.idle();

    expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
  });

  it('one 404 is not a deletion on Redis either: the retry finds the claim and keeps it held', async () => {
    cluster = await startCluster();
    const { fake } = cluster;
    const first = await cluster.startReplica({ name: 'first' });
    const n = fake.createIssue(REPO);
    const alice = fake.addComment(REPO, n, { author: 'alice', body: claim('s-alice') }).id;
    const issuePath = `/repos/${REPO}/issues/${n}`;
    const notFound = fake.inject({ method: 'GET', path: issuePath, status: 404 });
    expect(await cluster.send(createdDeliveries(fake, [alice])[0]!, first)).toBe(200);
    await cluster.idle();

    // One 404, then the retry read the issue: held, labelled, assigned, indexed.
    expect(notFound.hits).toBe(1);
    expect(fake.issue(REPO, n)).toMatchObject({
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
    expect(await cluster.redis.zcard(`${cluster.prefix}:deadlines`)).toBe(1);
  });
});
