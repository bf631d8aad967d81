/**
 * A refusal that retrying cannot change is told as such (docs/protocol.md §8): a token GitHub
 * does not let write the claim comment, or a write GitHub refuses as invalid, is a 4xx with a
 * code of its own saying what to do, never 503 "retry in 5 s"; a malformed path is 404 with no
 * error logged. Through the real server and the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import { answerAlicesComment, callApi, claimBody, claimPath, withIssue } from './api-helpers.js';

describe.concurrent('GitHub refusing the caller’s comment for good', () => {
  it('a fine-grained token without access (404 on the comment POST): 403 TOKEN_CANNOT_WRITE saying what the token needs', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    const comments = `/repos/${REPO}/issues/${n}/comments`;
    fake.inject({ method: 'POST', path: comments, actor: 'alice', status: 404, times: Infinity });
    for (let i = 0; i < 2; i++) {
      const answer = await alice.post(claimPath(n), claimBody('s-1'));
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('TOKEN_CANNOT_WRITE');
      expect(answer.body.error.message).toContain(`cannot write issue comments on ${REPO}`);
      expect(answer.body.error.message).toContain('Issues: write');
      expect(answer.headers.get('retry-after')).toBeNull();
    }
    expect(fake.comments(REPO, n)).toHaveLength(0);
  });

  it('a 422 from GitHub on the comment POST: 422 GITHUB_REFUSED with GitHub’s reason, no retry-after', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    answerAlicesComment(fake, n, {
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'IssueComment', code: 'custom', message: 'body is too long' }],
      },
    });
    const answer = await alice.post(claimPath(n), claimBody('s-1'));
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('GITHUB_REFUSED');
    expect(answer.body.error.message).toContain('Validation Failed');
    expect(answer.body.error.message).toContain('body is too long');
    expect(answer.body.error.message).not.toContain('retry in');
    expect(answer.headers.get('retry-after')).toBeNull();
  });
});

describe.concurrent('a malformed path', () => {
  it.for([
    '/repos/a%zz/b/issues/1/claim',
    '/repos/acme/wid%E0%A4%A/issues/1/claim',
    '/repos/acme/%/paths?paths=src/',
  ])(
    '%s is 404 NOT_FOUND, and nothing is logged at error level',
    async (path, { onTestFinished }) => {
      const h = await harnessFor(onTestFinished, {
        env: { LOG_LEVEL: 'error' },
        captureLogs: true,
      });
      const answer = await callApi(h.appUrl, 'GET', path, { token: h.fake.tokenFor('alice') });
      expect([400, 404]).toContain(answer.status);
      expect(answer.body.error.code).toBe('NOT_FOUND');
      expect(h.logLines).toEqual([]);
    },
  );
});
