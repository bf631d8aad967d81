/**
 * The pull-request guard and branch heartbeats across replicas (docs/protocol.md §11, §5):
 * two replicas of the app on one Redis, deliveries sent to different replicas at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { WebhookDelivery } from '../fake-github/fake-github.js';
import { type Cluster, createdDeliveries, REPO, startCluster } from '../replicas/harness.js';
import { pathClaim } from './guard-helpers.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const HOUR = 3_600_000;

/** The deliveries of `event` captured since `from`. */
function deliveriesOf(cluster: Cluster, event: string, from: number): WebhookDelivery[] {
  return cluster.fake.deliveries.slice(from).filter((d) => `${d.event}.${d.action}` === event);
}

describe('the guard on two replicas', () => {
  it('events of one pull request at once on both replicas make one check run; the release on the other replica turns it green', async () => {
    cluster = await startCluster({ replicas: 0 });
    const [r1, r2] = [await cluster.startReplica(), await cluster.startReplica()];
    const { fake } = cluster;
    const issue = fake.createIssue(REPO);
    const claim = fake.addComment(REPO, issue, {
      author: 'alice',
      body: pathClaim('s-a', ['src/'], { at: new Date(Date.now() - HOUR) }),
    });
    for (const d of createdDeliveries(fake, [claim.id])) await cluster.send(d, r1!);
    await cluster.idle();

    const mark = fake.deliveries.length;
    const pull = fake.openPullRequest(REPO, {
      head: 'feat/bob',
      author: 'bob',
      files: ['src/a.ts'],
    });
    fake.editPullRequest(REPO, pull, 'Retitled');
    const events = [
      ...deliveriesOf(cluster, 'pull_request.opened', mark),
      ...deliveriesOf(cluster, 'pull_request.edited', mark),
    ];
    expect(events).toHaveLength(2);
    const statuses = await Promise.all([
      cluster.send(events[0]!, r1!),
      cluster.send(events[1]!, r2!),
    ]);
    expect(statuses).toEqual([200, 200]);
    await cluster.idle();
    const sha = fake.pullRecord(REPO, pull).head.sha;
    expect(fake.checkRuns(REPO, sha)).toMatchObject([{ conclusion: 'failure' }]);

    const released = fake.deliveries.length;
    const marker = parseClaimMarker(fake.comment(claim.id)!.body)!;
    fake.editComment(
      claim.id,
      renderClaimComment(
        { ...marker, stage: 'released', outcome: 'landed', updated: new Date() },
        { paths: ['src/'] },
      ),
    );
    const [edit] = deliveriesOf(cluster, 'issue_comment.edited', released);
    expect(await cluster.send(edit!, r2!)).toBe(200);
    await cluster.idle();
    expect(fake.checkRuns(REPO, sha)).toMatchObject([{ conclusion: 'success' }]);
  });

  it('two pushes to the holder’s branch at once on both replicas cost one edit', async () => {
    cluster = await startCluster({ replicas: 0 });
    const [r1, r2] = [await cluster.startReplica(), await cluster.startReplica()];
    const { fake } = cluster;
    const issue = fake.createIssue(REPO);
    const at = new Date(Math.floor((Date.now() - HOUR) / 1000) * 1000);
    const claim = fake.addComment(REPO, issue, {
      author: 'alice',
      body: pathClaim('s-a', null, { at }),
      createdAt: at,
      updatedAt: at,
    });
    for (const d of createdDeliveries(fake, [claim.id])) await cluster.send(d, r1!);
    await cluster.idle();

    const mark = fake.deliveries.length;
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'alice' });
    fake.push(REPO, { branch: 'feat/s-a', pusher: 'alice' });
    const pushes = deliveriesOf(cluster, 'push.', mark);
    expect(pushes).toHaveLength(2);
    const statuses = await Promise.all([
      cluster.send(pushes[0]!, r1!),
      cluster.send(pushes[1]!, r2!),
    ]);
    expect(statuses).toEqual([200, 200]);
    await cluster.idle();
    expect(fake.count('PATCH', `/repos/${REPO}/issues/comments/${claim.id}`)).toBe(1);
    expect(parseClaimMarker(fake.comment(claim.id)!.body)!.updated.getTime()).toBeGreaterThan(
      at.getTime(),
    );
  });
});
