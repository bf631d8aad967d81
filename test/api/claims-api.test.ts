/**
 * The claims API of docs/protocol.md §8, row by row, through the real server (main()) and
 * the HTTP fake of GitHub. Each test starts its own fake and app.
 */
import { describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { claimComment, HOUR, harnessFor, IN_PROGRESS, markerOf } from '../e2e/e2e-helpers.js';
import { type Harness, REPO } from '../helpers/app-harness.js';
import {
  callApi,
  caller,
  callerRequests,
  claimBody,
  claimPath,
  fileHarness,
  heldByBob,
  withIssue,
  withIssueOnClock,
} from './api-helpers.js';

/** One harness for the validation rows, closed when the file's tests are done. */
const sharedHarness = fileHarness();

describe.concurrent('GET …/issues/{n}/claim', () => {
  it('a free issue answers the issue with its state and claim null', async ({ onTestFinished }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const n = fake.createIssue(REPO, { title: 'Fix the widget', labels: ['bug'] });
    const answer = await caller(appUrl, fake, 'alice').get(claimPath(n));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      issue: {
        repo: REPO,
        number: n,
        title: 'Fix the widget',
        url: expect.stringMatching(new RegExp(`/acme/widgets/issues/${n}$`)),
        state: 'open',
        labels: ['bug'],
        assignees: [],
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      },
      claim: null,
    });
  });

  it('a held issue answers the holder as a claim object', async ({ onTestFinished }) => {
    const { fake, settle, n, alice } = await withIssue(onTestFinished);
    const at = new Date(Date.now() - HOUR);
    const c = fake.addComment(REPO, n, {
      author: 'bob',
      body: claimComment('s-bob', { at }),
      createdAt: at,
    });
    await settle();
    const answer = await alice.get(claimPath(n));
    expect(answer.body.claim).toEqual({
      issue: `${REPO}#${n}`,
      kind: 'agent',
      commentId: c.id,
      url: expect.stringContaining(`#issuecomment-${c.id}`),
      author: 'bob',
      session: 's-bob',
      lane: 'lane-1',
      branch: 'feat/s-bob',
      stage: 'claimed',
      started: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      updated: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      heartbeat: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      staleAt: new Date(Math.floor(at.getTime() / 1000) * 1000 + 6 * HOUR + 1000)
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
      assignee: 'claim',
    });
  });

  it('a stale claim is reported as claim null, without a sweep', async ({ onTestFinished }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    fake.pauseWebhooks();
    const n = fake.createIssue(REPO);
    const at = new Date(Date.now() - 7 * HOUR);
    fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-old', { at }), createdAt: at });
    const answer = await caller(appUrl, fake, 'alice').get(claimPath(n));
    expect(answer.status).toBe(200);
    expect(answer.body.claim).toBeNull();
  });

  it('a pull request, a missing issue and a repository without the app are 404', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished, {
      seed: (f) => f.addRepo('elsewhere/thing', { installationId: null }),
    });
    const pr = fake.createIssue(REPO, { isPullRequest: true });
    const alice = caller(appUrl, fake, 'alice');
    for (const path of [claimPath(pr), claimPath(999), claimPath(1, 'elsewhere/thing')]) {
      const answer = await alice.get(path);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe.concurrent('authentication', () => {
  it('no token, a refused token and an installation token are 401 saying what to do', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, installationId, n } = await withIssue(onTestFinished);
    const none = await callApi(appUrl, 'GET', claimPath(n));
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: expect.stringContaining('Bearer'),
    });
    const refused = await callApi(appUrl, 'GET', claimPath(n), { token: 'ghp_not_a_token' });
    expect(refused.status).toBe(401);
    const bot = await callApi(appUrl, 'POST', claimPath(n), {
      token: fake.installationToken(installationId),
      body: claimBody('s-bot'),
    });
    expect(bot.status).toBe(401);
    expect(bot.body.error.message).toContain('installation token cannot name its account');
    // Tokens are never echoed.
    expect(JSON.stringify(refused.body)).not.toContain('ghp_not_a_token');
    expect(fake.comments(REPO, n)).toHaveLength(0);
  });

  it('the caller and the permission are read once and then cached', async ({ onTestFinished }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    await alice.get(claimPath(n));
    await alice.post(claimPath(n), claimBody('s-1'));
    await alice.post(claimPath(n), claimBody('s-1'));
    await alice.get(claimPath(n));
    expect(fake.count('GET', '/user')).toBe(1);
    expect(fake.count('GET', '/repos/acme/widgets/collaborators/alice/permission')).toBe(1);
  });
});

describe.concurrent('POST …/issues/{n}/claim', () => {
  it('a free issue: 201, one comment by the caller, the label and the assignee', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    const answer = await alice.post(
      claimPath(n),
      claimBody('s-1', { note: 'on it', client: 'loop-7' }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      issue: { repo: REPO, number: n, state: 'open', labels: [IN_PROGRESS], assignees: ['alice'] },
      claim: {
        author: 'alice',
        session: 's-1',
        lane: 'lane-s-1',
        branch: 'feat/s-1',
        stage: 'claimed',
        assignee: 'claim',
      },
      alreadyHeld: false,
      assigned: true,
      replaced: [],
    });
    const comments = fake.comments(REPO, n);
    expect(comments).toHaveLength(1);
    // Posted with the caller's token: an ordinary claim to every reader.
    expect(comments[0]?.user.login).toBe('alice');
    expect(comments[0]?.body).toContain('- Note: on it');
    expect(comments[0]?.body).toContain('- Via: loop-7');
    expect(parseClaimMarker(comments[0]?.body ?? '')).toMatchObject({
      session: 's-1',
      stage: 'claimed',
    });
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
  });

  it('the same session of the same caller again: 200 alreadyHeld, renewed, no second comment', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice, advance } = await withIssueOnClock(onTestFinished);
    const first = await alice.post(claimPath(n), claimBody('s-1'));
    advance(2 * HOUR);
    const again = await alice.post(claimPath(n), claimBody('s-1'));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      alreadyHeld: true,
      claim: { commentId: first.body.claim.commentId },
    });
    expect(again.body.claim.updated > first.body.claim.updated).toBe(true);
    expect(fake.comments(REPO, n)).toHaveLength(1);
  });

  it('held by another session: 409 naming the holder, and the caller writes nothing', async ({
    onTestFinished,
  }) => {
    const { fake, n, held, alice } = await heldByBob(onTestFinished);
    fake.clearRequests();
    const answer = await alice.post(claimPath(n), claimBody('s-1'));
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('ISSUE_ALREADY_CLAIMED');
    expect(answer.body.error.details.holder).toMatchObject({
      commentId: held.id,
      author: 'bob',
      session: 's-bob',
    });
    expect(answer.body.error.details.recovery).toEqual({
      action: 'wait',
      retryAt: answer.body.error.details.holder.staleAt,
    });
    expect(callerRequests(fake, 'alice').filter((r) => r.method !== 'GET')).toEqual([]);
    expect(fake.writes().filter((r) => !r.path.startsWith('/app/'))).toEqual([]);
  });

  it('the same caller with another session is refused too', async ({ onTestFinished }) => {
    const { n, alice } = await withIssue(onTestFinished);
    expect((await alice.post(claimPath(n), claimBody('s-1'))).status).toBe(201);
    const other = await alice.post(claimPath(n), claimBody('s-2'));
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('ISSUE_ALREADY_CLAIMED');
  });

  it('a closed issue: 409 ISSUE_NOT_OPEN naming the state', async ({ onTestFinished }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const n = fake.createIssue(REPO, { state: 'closed', stateReason: 'completed' });
    const answer = await caller(appUrl, fake, 'alice').post(claimPath(n), claimBody('s-1'));
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      code: 'ISSUE_NOT_OPEN',
      details: { state: 'closed', stateReason: 'completed' },
    });
    expect(fake.comments(REPO, n)).toHaveLength(0);
  });

  it('a stale claim is taken over: 201 with the stale claim replaced and finalised', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    fake.pauseWebhooks();
    const n = fake.createIssue(REPO);
    const at = new Date(Date.now() - 7 * HOUR);
    const old = fake.addComment(REPO, n, {
      author: 'bob',
      body: claimComment('s-old', { at }),
      createdAt: at,
    });
    const answer = await caller(appUrl, fake, 'alice').post(claimPath(n), claimBody('s-1'));
    expect(answer.status).toBe(201);
    expect(answer.body.replaced).toEqual([
      expect.objectContaining({
        commentId: old.id,
        session: 's-old',
        stage: 'released',
        outcome: 'abandoned',
      }),
    ]);
    expect(markerOf(fake, old.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(fake.comment(answer.body.claim.commentId)?.body).toContain(
      `replaces claim comment ${old.id}`,
    );
  });

  it.each([
    [{ lane: 'l', branch: 'b' }, { session: expect.stringContaining('1..128') }],
    [claimBody('-bad'), { session: expect.stringContaining('starting with a letter or digit') }],
    [claimBody('s-1', { note: 'x'.repeat(281) }), { note: expect.stringContaining('280') }],
    [
      claimBody('s-1', { client: 'has space' }),
      { client: expect.stringContaining('A-Za-z0-9._-') },
    ],
    [claimBody('s-1', { stage: 'review' }), { stage: expect.stringContaining('not a field') }],
    [claimBody('s-1', { paths: ['src/../a.ts'] }), { paths: expect.stringContaining('. or ..') }],
    [[1, 2], { body: 'a JSON object' }],
  ])('bad input %j: 422 INVALID_INPUT naming the field, nothing written', async (body, fields) => {
    // Not concurrent with a harness each: one app answers every row.
    const { fake, appUrl } = await sharedHarness();
    const n = fake.createIssue(REPO);
    const answer = await caller(appUrl, fake, 'alice').post(claimPath(n), body);
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('INVALID_INPUT');
    expect(answer.body.error.details.fields).toEqual(fields);
    expect(fake.comments(REPO, n)).toHaveLength(0);
  });

  it('a body that is not JSON is 422 too', async () => {
    const { fake, appUrl } = await sharedHarness();
    const n = fake.createIssue(REPO);
    const answer = await callApi(appUrl, 'POST', claimPath(n), {
      token: fake.tokenFor('alice'),
      rawBody: '{"session":',
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.fields).toEqual({ body: 'a JSON object' });
  });

  it('role_name decides trust: maintain may claim, triage and read are 403 NOT_TRUSTED', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished, {
      seed: (f) => {
        f.addUser('mona', { association: 'COLLABORATOR' });
        f.setRole(REPO, 'mona', 'maintain');
        f.setRole(REPO, 'bob', 'triage');
      },
    });
    const [a, b, c] = [fake.createIssue(REPO), fake.createIssue(REPO), fake.createIssue(REPO)];
    expect((await caller(appUrl, fake, 'mona').post(claimPath(a), claimBody('s-m'))).status).toBe(
      201,
    );
    for (const [login, n] of [
      ['bob', b],
      ['mallory', c],
    ] as const) {
      const answer = await caller(appUrl, fake, login).post(claimPath(n), claimBody('s-x'));
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('NOT_TRUSTED');
      expect(fake.comments(REPO, n)).toHaveLength(0);
    }
  });

  it('a 502 on the comments list mid-claim: 503 with retry-after, nothing posted', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    // Every attempt, octokit's retries included.
    fake.inject({
      method: 'GET',
      path: `/repos/${REPO}/issues/${n}/comments`,
      status: 502,
      times: Infinity,
    });
    const answer = await alice.post(claimPath(n), claimBody('s-1'));
    fake.clearInjections();
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('UNVERIFIABLE');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fake.comments(REPO, n)).toHaveLength(0);
    expect(fake.writes().filter((r) => !r.path.startsWith('/app/'))).toEqual([]);
  });

  it('an API claim racing a comment claim: the older comment holds, the API answers 409', async ({
    onTestFinished,
  }) => {
    const h = await withIssue(onTestFinished);
    const { fake, n } = h;
    const { answer, bobs } = await apiClaimRacingComment(h, n, 's-api', 's-comment');
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('ISSUE_ALREADY_CLAIMED');
    expect(answer.body.error.details.holder).toMatchObject({ commentId: bobs.id, author: 'bob' });
    const alices = fake.comments(REPO, n).find((c) => c.user.login === 'alice');
    expect(markerOf(fake, alices!.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(answer.body.error.details.finalised).toBe(alices!.id);
    expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
  });
});

describe.concurrent('POST …/claim/heartbeat', () => {
  it('moves the caller’s heartbeat and stage; blocked adds the blocked label', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice, advance } = await withIssueOnClock(onTestFinished);
    const claimed = await alice.post(claimPath(n), claimBody('s-1'));
    advance(HOUR);
    const beat = await alice.post(`${claimPath(n)}/heartbeat`, {
      session: 's-1',
      stage: 'implementing',
    });
    expect(beat.status).toBe(200);
    expect(beat.body.claim).toMatchObject({
      commentId: claimed.body.claim.commentId,
      stage: 'implementing',
    });
    expect(beat.body.claim.updated > claimed.body.claim.updated).toBe(true);
    const blocked = await alice.post(`${claimPath(n)}/heartbeat`, {
      session: 's-1',
      stage: 'blocked',
    });
    expect(blocked.body.issue.labels).toEqual([IN_PROGRESS, 'status:blocked']);
    expect(markerOf(fake, claimed.body.claim.commentId)).toMatchObject({ stage: 'blocked' });
  });

  it('never revives a stale claim (409 CLAIM_NOT_HELD) and refuses another session’s', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    fake.pauseWebhooks();
    const stale = fake.createIssue(REPO);
    const at = new Date(Date.now() - 7 * HOUR);
    fake.addComment(REPO, stale, {
      author: 'alice',
      body: claimComment('s-1', { at }),
      createdAt: at,
    });
    const other = fake.createIssue(REPO);
    fake.addComment(REPO, other, { author: 'bob', body: claimComment('s-bob') });
    const alice = caller(appUrl, fake, 'alice');
    const revived = await alice.post(`${claimPath(stale)}/heartbeat`, { session: 's-1' });
    expect(revived.status).toBe(409);
    expect(revived.body.error.code).toBe('CLAIM_NOT_HELD');
    const taken = await alice.post(`${claimPath(other)}/heartbeat`, { session: 's-1' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('ISSUE_ALREADY_CLAIMED');
    const released = await alice.post(`${claimPath(other)}/heartbeat`, {
      session: 's-1',
      stage: 'released',
    });
    expect(released.status).toBe(422);
    expect(callerRequests(fake, 'alice').filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe.concurrent('DELETE …/issues/{n}/claim', () => {
  it('the caller’s own session: 200 with the finalised claim; label and assignee removed', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    const claimed = await alice.post(claimPath(n), claimBody('s-1'));
    const answer = await alice.delete(claimPath(n), {
      session: 's-1',
      outcome: 'landed',
      note: 'merged',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      released: true,
      claim: { commentId: claimed.body.claim.commentId, stage: 'released', outcome: 'landed' },
    });
    expect(fake.issue(REPO, n).labels).toEqual([]);
    expect(fake.issue(REPO, n).assignees).toEqual([]);
    // Edited with the caller's token.
    expect(
      fake.requests.some(
        (r) =>
          r.method === 'PATCH' &&
          r.actor === 'alice' &&
          r.path.endsWith(`/${claimed.body.claim.commentId}`),
      ),
    ).toBe(true);
  });

  it('without a session: an administrative release for maintain, 403 NOT_ALLOWED for write', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, n, held, alice } = await heldByBob(onTestFinished, {
      seed: (f) => {
        f.addUser('mona', { association: 'MEMBER' });
        f.setRole(REPO, 'mona', 'maintain');
      },
    });
    const refused = await alice.delete(claimPath(n), {
      outcome: 'abandoned',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('NOT_ALLOWED');
    expect(markerOf(fake, held.id)).toMatchObject({ stage: 'claimed' });
    const answer = await caller(appUrl, fake, 'mona').delete(claimPath(n), {
      outcome: 'abandoned',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.claim).toMatchObject({
      commentId: held.id,
      stage: 'released',
      outcome: 'abandoned',
    });
    expect(fake.comment(held.id)?.body).toContain('administrative release by @mona');
    expect(fake.issue(REPO, n).labels).toEqual([]);
  });

  it('no live claim of that session: 409 CLAIM_NOT_HELD, nothing written', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished);
    await alice.post(claimPath(n), claimBody('s-1'));
    fake.clearRequests();
    const answer = await alice.delete(claimPath(n), { session: 's-2', outcome: 'abandoned' });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('CLAIM_NOT_HELD');
    const missing = await alice.delete(claimPath(n), { session: 's-1' });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.fields).toEqual({
      outcome: expect.stringContaining('landed'),
    });
    expect(fake.writes().filter((r) => !r.path.startsWith('/app/'))).toEqual([]);
  });
});

describe.concurrent('the repository’s rollout keys (docs/protocol.md §15)', () => {
  it('enabled: false: no claim is taken, renewed or released there (409 NOT_ENFORCED), nothing written', async ({
    onTestFinished,
  }) => {
    const { fake, n, alice } = await withIssue(onTestFinished, {
      seed: (f) => f.setFile(REPO, '.github/claims.yml', 'enabled: false\n'),
    });
    fake.clearRequests();
    const answers = [
      await alice.post(claimPath(n), claimBody('s-1')),
      await alice.post(`${claimPath(n)}/heartbeat`, { session: 's-1' }),
      await alice.delete(claimPath(n), { session: 's-1', outcome: 'abandoned' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('NOT_ENFORCED');
      expect(answer.body.error.message).toContain('enabled: false');
    }
    expect(fake.writes().filter((r) => !r.path.startsWith('/app/'))).toEqual([]);
    expect(fake.comments(REPO, n)).toEqual([]);
    // Nor does the work queue offer its issues as claimable.
    const listed = await alice.get('/issues');
    expect(listed.body.items.map((i: { issue: { number: number } }) => i.issue.number)).toEqual([
      n,
    ]);
    const queue = await alice.get('/issues?claimable=true');
    expect(queue.body.items).toEqual([]);
  });

  it('mode: observe: a claim is answered, a lost race finalises nothing, an administrative release is refused', async ({
    onTestFinished,
  }) => {
    const h = await harnessFor(onTestFinished, {
      seed: (f) => {
        f.setFile(REPO, '.github/claims.yml', 'mode: observe\n');
        f.addUser('mona', { association: 'MEMBER' });
        f.setRole(REPO, 'mona', 'maintain');
      },
    });
    const { fake, appUrl } = h;
    const n = fake.createIssue(REPO);
    fake.clearRequests();
    // Alice's API claim races bob's comment claim and loses (as in the race above).
    const { answer: lost, bobs } = await apiClaimRacingComment(h, n, 's-alice', 's-bob');
    const alices = fake.comments(REPO, n).find((c) => c.user.login === 'alice');
    expect(markerOf(fake, alices!.id)).toMatchObject({ stage: 'claimed' });
    expect(lost.status).toBe(409);
    expect(lost.body.error.code).toBe('ISSUE_ALREADY_CLAIMED');
    expect(lost.body.error.message).not.toContain('finalised');
    expect(lost.body.error.details.finalised).toBeUndefined();

    const refused = await caller(appUrl, fake, 'mona').delete(claimPath(n), {
      outcome: 'abandoned',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('NOT_ENFORCED');
    expect(refused.body.error.message).toContain('observe mode');
    expect(markerOf(fake, bobs.id)).toMatchObject({ stage: 'claimed' });
    // Nothing was written with the app's token; only the callers' own comments.
    expect(fake.writes().filter((r) => !r.path.startsWith('/app/') && r.actor !== 'alice')).toEqual(
      [],
    );
  });
});

/**
 * Alice's API claim on issue `n` (session `apiSession`) with its comment held up at GitHub,
 * while bob's client posts its own claim comment (session `commentSession`) meanwhile: the
 * race the API claim loses. Resolves with the API's answer once the app has settled.
 */
async function apiClaimRacingComment(
  h: Harness,
  n: number,
  apiSession: string,
  commentSession: string,
) {
  const held = h.fake.inject({
    method: 'POST',
    path: `/repos/${REPO}/issues/${n}/comments`,
    delayMs: 300,
  });
  const pending = caller(h.appUrl, h.fake, 'alice').post(claimPath(n), claimBody(apiSession));
  while (held.hits === 0) await new Promise((r) => setTimeout(r, 10));
  const bobs = h.fake.addComment(REPO, n, { author: 'bob', body: claimComment(commentSession) });
  const answer = await pending;
  await h.settle();
  return { answer, bobs };
}
