/**
 * The claims API across replicas on Redis (docs/protocol.md §8 "Serialised"): API calls on
 * one issue take the same per-issue lock as reconciles, wherever they arrive.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, REPO, startCluster } from '../replicas/harness.js';
import { caller, claimBody, claimPath } from './api-helpers.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('two replicas on one Redis', () => {
  it('two callers claiming at once through two replicas: one 201, one 409, one comment', async () => {
    cluster = await startCluster({ replicas: 2 });
    const { fake, replicas } = cluster;
    const n = fake.createIssue(REPO, { title: 'Contested' });
    const [alice, bob] = [
      caller(replicas[0]!.url, fake, 'alice'),
      caller(replicas[1]!.url, fake, 'bob'),
    ];
    const answers = await Promise.all([
      alice.post(claimPath(n), claimBody('s-alice')),
      bob.post(claimPath(n), claimBody('s-bob')),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const winner = answers.find((a) => a.status === 201)!;
    const loser = answers.find((a) => a.status === 409)!;
    expect(loser.body.error.code).toBe('ISSUE_ALREADY_CLAIMED');
    expect(loser.body.error.details.holder.commentId).toBe(winner.body.claim.commentId);
    const comments = fake.comments(REPO, n);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.user.login).toBe(winner.body.claim.author);
    // The loser's token wrote nothing.
    const loserLogin = winner.body.claim.author === 'alice' ? 'bob' : 'alice';
    expect(fake.requests.filter((r) => r.actor === loserLogin && r.method !== 'GET')).toEqual([]);
    expect(fake.issue(REPO, n).assignees).toEqual([winner.body.claim.author]);
  });
});

describe('three replicas on one Redis', () => {
  it('a session’s release of everything sent to three replicas at once releases each claim once', async () => {
    cluster = await startCluster({ replicas: 3, seed: (f) => f.addRepo('acme/gears') });
    const { fake, replicas } = cluster;
    const [first, second, third] = replicas.map((r) => caller(r.url, fake, 'alice'));
    const held = [
      { repo: 'acme/gears', n: fake.createIssue('acme/gears') },
      { repo: REPO, n: fake.createIssue(REPO) },
      { repo: REPO, n: fake.createIssue(REPO) },
    ];
    const other = fake.createIssue(REPO);
    const ids: number[] = [];
    for (const { repo, n } of held) {
      const answer = await first!.post(claimPath(n, repo), claimBody('s-1'));
      expect(answer.status).toBe(201);
      ids.push(answer.body.claim.commentId);
    }
    const kept = await second!.post(claimPath(other), claimBody('s-2'));
    expect(kept.status).toBe(201);
    fake.clearRequests();

    const answers = await Promise.all(
      [first!, second!, third!].map((as) => as.delete('/claims', { session: 's-1' })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.failed).toEqual([]);
    }
    // Every claim released by exactly one of the calls, each edited once, in the issue's lock.
    const released = answers.flatMap((a) =>
      a.body.released.map((c: { commentId: number }) => c.commentId),
    );
    expect(released.sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const edits = fake.requests.filter(
        (r) => r.method === 'PATCH' && r.path.endsWith(`/issues/comments/${id}`),
      );
      expect(edits).toHaveLength(1);
    }
    for (const { repo, n } of held) expect(fake.issue(repo, n).labels).toEqual([]);
    expect(fake.issue(REPO, other).labels).toEqual(['status:in-progress']);
    // Idempotent wherever it is asked.
    expect((await third!.delete('/claims', { session: 's-1' })).body).toEqual({
      released: [],
      failed: [],
    });
  });
});
