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
