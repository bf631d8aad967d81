/**
 * Path claims across replicas (docs/protocol.md §10, §5): three replicas of the app on one
 * Redis, two claims with overlapping paths on two issues delivered at the same moment to
 * different replicas. Reconciles of different issues run in parallel, so neither sees the
 * other's index entry before it writes its own; exactly one claim must keep.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { type Cluster, createdDeliveries, REPO, startCluster } from '../replicas/harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

function pathClaim(session: string, paths: readonly string[]): string {
  const at = new Date();
  return renderClaimComment(
    {
      session,
      lane: 'lane-1',
      branch: `feat/${session}`,
      started: at,
      updated: at,
      stage: 'claimed',
      assignee: 'claim',
    },
    { paths },
  );
}

describe('path claims on three replicas', () => {
  it('two claims with overlapping paths on two issues, delivered at once to different replicas: exactly one keeps', async () => {
    cluster = await startCluster({ replicas: 3 });
    const { fake, replicas } = cluster;
    // Three pairs at once, each pair contesting its own directory, for more interleavings.
    const pairs = [0, 1, 2].map((i) => {
      const n1 = fake.createIssue(REPO, { title: `pair ${i} one` });
      const n2 = fake.createIssue(REPO, { title: `pair ${i} two` });
      const older = fake.addComment(REPO, n1, {
        author: 'alice',
        body: pathClaim(`s-a${i}`, [`pkg${i}/`]),
      });
      const younger = fake.addComment(REPO, n2, {
        author: 'bob',
        body: pathClaim(`s-b${i}`, [`pkg${i}/core.ts`, `R${i}.md`]),
      });
      return { n1, n2, older: older.id, younger: younger.id };
    });
    const deliveries = createdDeliveries(
      fake,
      pairs.flatMap((p) => [p.younger, p.older]),
    );

    const statuses = await Promise.all(
      deliveries.map((delivery, i) => cluster!.send(delivery, replicas[i % replicas.length]!)),
    );
    expect(statuses).toEqual(deliveries.map(() => 200));
    await cluster.idle();

    for (const [i, pair] of pairs.entries()) {
      const older = parseClaimMarker(fake.comment(pair.older)?.body ?? '');
      const younger = parseClaimMarker(fake.comment(pair.younger)?.body ?? '');
      expect(older, `pair ${i}`).toMatchObject({ stage: 'claimed' });
      expect(younger, `pair ${i}`).toMatchObject({ stage: 'released', outcome: 'abandoned' });
      expect(fake.comment(pair.younger)?.body).toContain(
        `paths held by acme/widgets#${pair.n1} (comment ${pair.older}, session s-a${i}): pkg${i}/`,
      );
      expect(fake.issue(REPO, pair.n1).labels).toEqual(['status:in-progress']);
      expect(fake.issue(REPO, pair.n2).labels).toEqual([]);
      // One finalisation each, however the race went.
      expect(fake.count('PATCH', `/repos/${REPO}/issues/comments/${pair.younger}`)).toBe(1);
      expect(fake.count('PATCH', `/repos/${REPO}/issues/comments/${pair.older}`)).toBe(0);
    }
  });
});
