/**
 * `DELETE /api/claims/v1/claims` (docs/protocol.md §17): everything a session holds, released
 * in one call, through the real server and the fake GitHub. Each claim is released as
 * `DELETE …/issues/{n}/claim` would release it; other sessions' claims, other authors' and
 * repositories the caller cannot read are left alone.
 */
import { describe, expect, it } from 'vitest';
import type { PacingClock } from '../../src/github/write-pacing.js';
import {
  claimComment,
  harnessFor,
  IN_PROGRESS,
  markerOf,
  type OnFinished,
} from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import { callApi, caller, claimBody, claimPath } from './api-helpers.js';

const GEARS = 'acme/gears';
const SECRET = 'acme/secret';

/**
 * Alice's session s-1 holds widgets #w1 (with a path) and #w2 and gears #g1 through the API;
 * her session s-2 holds widgets #w3; bob's session named s-1 too holds gears #g2; and alice's
 * s-1 holds #s1 in a private repository she has since lost her role on.
 */
async function sessionsWorld(onFinished: OnFinished) {
  const h = await harnessFor(onFinished, {
    seed: (f) => {
      f.addRepo(GEARS);
      f.addRepo(SECRET, { private: true });
    },
  });
  const { fake, appUrl } = h;
  const alice = caller(appUrl, fake, 'alice');
  const issues = {
    w1: fake.createIssue(REPO),
    w2: fake.createIssue(REPO),
    w3: fake.createIssue(REPO),
    g1: fake.createIssue(GEARS),
    g2: fake.createIssue(GEARS),
    s1: fake.createIssue(SECRET),
  };
  const claimed = async (repo: string, n: number, session: string, extra = {}) => {
    const answer = await alice.post(claimPath(n, repo), claimBody(session, extra));
    expect(answer.status).toBe(201);
    return answer.body.claim.commentId as number;
  };
  const ids = {
    w1: await claimed(REPO, issues.w1, 's-1', { paths: ['src/a.ts'] }),
    w2: await claimed(REPO, issues.w2, 's-1'),
    g1: await claimed(GEARS, issues.g1, 's-1'),
    w3: await claimed(REPO, issues.w3, 's-2'),
    g2: fake.addComment(GEARS, issues.g2, { author: 'bob', body: claimComment('s-1') }).id,
    s1: fake.addComment(SECRET, issues.s1, { author: 'alice', body: claimComment('s-1') }).id,
  };
  await h.settle();
  fake.setRole(SECRET, 'alice', 'none');
  const releaseAll = (body: unknown) => alice.delete('/claims', body);
  return { ...h, alice, issues, ids, releaseAll };
}

describe.concurrent('DELETE /api/claims/v1/claims', () => {
  it('releases every claim of the session across repositories, in order, and nothing else', async ({
    onTestFinished,
  }) => {
    const { fake, issues, ids, releaseAll, alice } = await sessionsWorld(onTestFinished);
    fake.clearRequests();
    const answer = await releaseAll({ session: 's-1', outcome: 'landed', note: 'session over' });
    expect(answer.status).toBe(200);
    expect(answer.body.failed).toEqual([]);
    expect(answer.body.released).toEqual([
      expect.objectContaining({ issue: `${GEARS}#${issues.g1}`, commentId: ids.g1 }),
      expect.objectContaining({ issue: `${REPO}#${issues.w1}`, commentId: ids.w1 }),
      expect.objectContaining({ issue: `${REPO}#${issues.w2}`, commentId: ids.w2 }),
    ]);
    for (const claim of answer.body.released) {
      expect(claim).toMatchObject({ stage: 'released', outcome: 'landed', session: 's-1' });
    }
    // Each released as one release would: labels and the claim's assignee gone, with the note.
    for (const [repo, n, id] of [
      [GEARS, issues.g1, ids.g1],
      [REPO, issues.w1, ids.w1],
      [REPO, issues.w2, ids.w2],
    ] as const) {
      expect(fake.issue(repo, n)).toMatchObject({ labels: [], assignees: [] });
      expect(markerOf(fake, id)).toMatchObject({ stage: 'released', outcome: 'landed' });
      expect(fake.comment(id)?.body).toContain('session over');
    }
    // The path line goes with its claim.
    const paths = await alice.get(`/repos/${REPO}/paths?paths=src/a.ts`);
    expect(paths.body.paths).toEqual([expect.objectContaining({ available: true })]);
    // Alice's other session, bob's session of the same name, and the private repository: untouched.
    for (const id of [ids.w3, ids.g2, ids.s1]) {
      expect(markerOf(fake, id)).toMatchObject({ stage: 'claimed' });
    }
    expect(fake.issue(REPO, issues.w3).labels).toEqual([IN_PROGRESS]);
    expect(fake.issue(GEARS, issues.g2).labels).toEqual([IN_PROGRESS]);
    expect(fake.issue(SECRET, issues.s1).labels).toEqual([IN_PROGRESS]);
    // Of the private repository, only alice's own token was asked whether it can read it.
    expect(
      fake.requests.filter((r) => r.path.startsWith(`/repos/${SECRET}`)).map((r) => r.actor),
    ).toEqual(['alice']);
    expect(JSON.stringify(answer.body)).not.toContain('secret');

    // Idempotent: a second call finds nothing left to release and writes nothing.
    fake.clearRequests();
    const again = await releaseAll({ session: 's-1', outcome: 'landed' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ released: [], failed: [] });
    expect(fake.writes().filter((r) => !r.path.startsWith('/app/'))).toEqual([]);
  });

  it('a session holding nothing: 200 with nothing released, no write; the outcome defaults to abandoned', async ({
    onTestFinished,
  }) => {
    const { fake, ids, releaseAll } = await sessionsWorld(onTestFinished);
    fake.clearRequests();
    const none = await releaseAll({ session: 's-9' });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ released: [], failed: [] });
    expect(fake.writes().filter((r) => !r.path.startsWith('/app/'))).toEqual([]);
    expect(fake.requests.filter((r) => r.actor === 'alice' && r.path !== '/user')).toEqual([]);

    const answer = await releaseAll({ session: 's-2' });
    expect(answer.body.released).toEqual([
      expect.objectContaining({ commentId: ids.w3, outcome: 'abandoned' }),
    ]);
  });

  it('bad input is a 422 naming each field, before anything is read or written', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, alice, releaseAll } = await sessionsWorld(onTestFinished);
    fake.clearRequests();
    const bad = await releaseAll({ outcome: 'finished', note: 'x'.repeat(300), extra: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields).toEqual({
      session: expect.stringContaining('1..128'),
      outcome: expect.stringContaining('landed'),
      note: expect.stringContaining('280'),
      extra: 'absent: not a field of this request',
    });
    expect((await releaseAll({ session: 'not a session' })).status).toBe(422);
    const get = await callApi(appUrl, 'GET', '/claims', { token: alice.token });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('DELETE');
    expect((await callApi(appUrl, 'DELETE', '/claims', { body: { session: 's-1' } })).status).toBe(
      401,
    );
    expect(fake.writes().filter((r) => !r.path.startsWith('/app/'))).toEqual([]);
  });

  it('an issue whose thread cannot be read is listed in failed with its 503 error; the others are released', async ({
    onTestFinished,
  }) => {
    const { fake, issues, ids, releaseAll } = await sessionsWorld(onTestFinished);
    fake.inject({
      method: 'GET',
      path: `/repos/${REPO}/issues/${issues.w2}/comments`,
      status: 502,
      times: Infinity,
    });
    const answer = await releaseAll({ session: 's-1', outcome: 'abandoned' });
    expect(answer.status).toBe(200);
    expect(answer.body.released.map((c: { commentId: number }) => c.commentId)).toEqual([
      ids.g1,
      ids.w1,
    ]);
    expect(answer.body.failed).toEqual([
      {
        issue: `${REPO}#${issues.w2}`,
        error: { code: 'UNVERIFIABLE', message: expect.stringContaining('retry in') },
      },
    ]);
    expect(markerOf(fake, ids.w2)).toMatchObject({ stage: 'claimed' });
    expect(fake.issue(REPO, issues.w2).labels).toEqual([IN_PROGRESS]);

    // Once GitHub answers again, a second call releases the one left.
    fake.clearInjections();
    const retried = await releaseAll({ session: 's-1', outcome: 'abandoned' });
    expect(retried.body).toEqual({
      released: [expect.objectContaining({ commentId: ids.w2, outcome: 'abandoned' })],
      failed: [],
    });
  });

  it('thirty claims at GitHub’s pace (a minute of paced writes): the call answers within the client’s deadline, and a second call releases the rest', async ({
    onTestFinished,
  }) => {
    // Writes paced a second apart, as in production, on a clock where each wait passes at once
    // and is counted: the test takes no time, and the call's time is what GitHub's pace costs.
    let pacedMs = 0;
    const passing: PacingClock = {
      now: () => pacedMs,
      wait: async (ms) => {
        pacedMs += ms;
      },
    };
    const h = await harnessFor(onTestFinished, {
      env: { CLAIMS_WRITE_PACING_MS: '1000' },
      main: { pacingClock: passing },
    });
    const { fake, appUrl } = h;
    const ids = Array.from({ length: 30 }, () => {
      const n = fake.createIssue(REPO);
      return fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') }).id;
    });
    await h.settle();
    const alice = caller(appUrl, fake, 'alice');

    const startedAt = pacedMs;
    const first = await alice.delete('/claims', { session: 's-1', outcome: 'landed' });
    const tookMs = pacedMs - startedAt;
    expect(first.status).toBe(200);
    // Within the CLI's 45 s deadline in GitHub's time; every claim either released or listed.
    expect(tookMs).toBeLessThan(45_000);
    const released = first.body.released.map((c: { commentId: number }) => c.commentId);
    expect(released.length).toBeGreaterThan(0);
    expect(released.length + first.body.failed.length).toBe(30);
    for (const failed of first.body.failed) {
      expect(failed.error).toEqual({
        code: 'UNVERIFIABLE',
        message: expect.stringContaining('still live; call again for the rest'),
      });
    }
    const left = ids.filter((id) => !released.includes(id));
    for (const id of left) expect(markerOf(fake, id)).toMatchObject({ stage: 'claimed' });

    const second = await alice.delete('/claims', { session: 's-1', outcome: 'landed' });
    expect(second.body.failed).toEqual([]);
    expect(second.body.released.map((c: { commentId: number }) => c.commentId)).toEqual(left);
    for (const id of ids) expect(markerOf(fake, id)).toMatchObject({ stage: 'released' });
  });
});
