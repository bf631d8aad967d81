/**
 * The caller's own comment writes, sent by the one executor with the caller's token
 * (docs/protocol.md §8 "Who writes what"), keep the API's answers: GitHub failing (a 5xx, a
 * rate limit) is 503 with GitHub's retry-after, never a refusal; a refused token while writing
 * is 401; the comment is the caller's. Through the real server and the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/app-harness.js';
import {
  answerAlicesComment,
  callerRequests,
  claimBody,
  claimPath,
  withIssue,
} from './api-helpers.js';

describe.concurrent('GitHub failing the caller’s comment write', () => {
  it('a rate-limited comment POST: 503 with GitHub’s retry-after, and nothing posted', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    answerAlicesComment(fake, n, {
      status: 403,
      headers: { 'retry-after': '42' },
      body: { message: 'You have exceeded a secondary rate limit' },
    });
    const answer = await alice.post(claimPath(n), claimBody('s-1'));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('42');
    expect(fake.comments(REPO, n)).toHaveLength(0);
  });

  it('a 502 on the heartbeat’s comment PATCH: 503, the claim as it was', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    const claimed = await alice.post(claimPath(n), claimBody('s-1'));
    expect(claimed.status).toBe(201);
    const [comment] = fake.comments(REPO, n);
    fake.inject({
      method: 'PATCH',
      path: `/repos/${REPO}/issues/comments/${comment!.id}`,
      actor: 'alice',
      status: 502,
    });
    const answer = await alice.post(`${claimPath(n)}/heartbeat`, { session: 's-1' });
    expect(answer.status).toBe(503);
    expect(answer.body.error.message).toContain('editing the claim comment');
    expect(fake.comment(comment!.id)!.body).toBe(comment!.body);
  });

  it('a token GitHub refuses while writing: 401, and the claim comment is written by nobody else', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    answerAlicesComment(fake, n, { status: 401, body: { message: 'Bad credentials' } });
    const answer = await alice.post(claimPath(n), claimBody('s-1'));
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('UNAUTHENTICATED');
    expect(fake.comments(REPO, n)).toHaveLength(0);
    const again = await alice.post(claimPath(n), claimBody('s-1'));
    expect(again.status).toBe(201);
    expect(fake.comments(REPO, n).map((c) => c.user.login)).toEqual(['alice']);
    const posts = callerRequests(fake, 'alice').filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
  });
});
