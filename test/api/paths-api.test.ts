/**
 * Path claims through the claims API (docs/protocol.md §10): `paths` on `POST …/claim`, the
 * 409 PATHS_CLAIMED and the check route `GET …/repos/{o}/{r}/paths`, through the real server
 * and the HTTP fake of GitHub. Each test starts its own fake and app.
 */
import { describe, expect, it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { pathLineOf, renderPathLine } from '../../src/claims/paths.js';
import { HOUR, harnessFor, markerOf } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import {
  callApi,
  caller,
  callerRequests,
  claimBody,
  claimPath,
  fileHarness,
  withIssue,
  withTwoIssues,
} from './api-helpers.js';

/** One harness for the validation rows, closed when the file's tests are done. */
const sharedHarness = fileHarness();

/** A comment claim by `session` naming `paths`, its marker and heartbeat `at`. */
function pathClaim(session: string, paths: readonly string[], at: Date): string {
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

/** `/repos/acme/widgets/paths?paths=…`, the list URL-encoded as one query value. */
function checkPath(paths: readonly string[]): string {
  return `/repos/${REPO}/paths?${new URLSearchParams({ paths: paths.join(',') })}`;
}

/** The second line of a comment: where the path line lives. */
function secondLine(body: string | undefined): string | undefined {
  return body?.split('\n')[1];
}

describe.concurrent('POST …/claim with paths', () => {
  it.each([
    [['../etc/passwd'], '. or ..'],
    [['/src/a.ts'], 'no leading /'],
    [['src/a b.ts'], 'percent-encoded'],
    [['src//a.ts'], 'empty segment'],
    [['src/a.ts', 'src/a.ts'], 'listed twice'],
    [['src/%61.ts', 'src/a.ts'], 'listed twice'],
    [[], '1..20 entries'],
    [Array.from({ length: 21 }, (_, i) => `f${i}`), '1..20 entries'],
    [['src/a.ts', 7], 'every entry must be a string'],
    [
      Array.from({ length: 20 }, (_, i) => `${'d'.repeat(60)}/${i}`),
      'the path line would be 1300 bytes, at most 1024',
    ],
    ['src/a.ts', 'an array of 1..20'],
  ])('paths %j: 422 INVALID_INPUT naming paths (%s), nothing written', async (paths, problem) => {
    // Not concurrent with a harness each: one app answers every row.
    const { fake, appUrl } = await sharedHarness();
    const n = fake.createIssue(REPO);
    const answer = await caller(appUrl, fake, 'alice').post(
      claimPath(n),
      claimBody('s-1', { paths }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('INVALID_INPUT');
    expect(Object.keys(answer.body.error.details.fields)).toEqual(['paths']);
    expect(answer.body.error.details.fields.paths).toContain(problem);
    expect(fake.comments(REPO, n)).toHaveLength(0);
    expect(callerRequests(fake, 'alice').filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('disjoint paths: 201, the path line is the second line and the claim lists the paths', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, n1, n2, alice } = await withTwoIssues(onTestFinished);
    const bob = await caller(appUrl, fake, 'bob').post(
      claimPath(n1),
      claimBody('s-bob', { paths: ['src/a.ts', 'docs/'] }),
    );
    expect(bob.status).toBe(201);
    const answer = await alice.post(
      claimPath(n2),
      claimBody('s-alice', { paths: ['src/b.ts', 'lib/caf%C3%A9/'] }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body.claim.paths).toEqual(['src/b.ts', 'lib/caf%C3%A9/']);
    const [comment] = fake.comments(REPO, n2);
    expect(secondLine(comment?.body)).toBe(renderPathLine(['src/b.ts', 'lib/caf%C3%A9/']));
    expect(markerOf(fake, comment!.id)?.session).toBe('s-alice');
    // The reader of the comment side agrees with what the API wrote.
    expect(pathLineOf(comment!.body)).toEqual({
      kind: 'valid',
      paths: ['src/b.ts', 'lib/caf%C3%A9/'],
    });
    const read = await alice.get(claimPath(n2));
    expect(read.body.claim).toEqual(answer.body.claim);
  });

  it('an entry is written in its canonical form', async ({ onTestFinished }) => {
    const { n, alice } = await withIssue(onTestFinished);
    const answer = await alice.post(
      claimPath(n),
      claimBody('s-1', { paths: ['src/%c3%a9t%61.ts'] }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body.claim.paths).toEqual(['src/%C3%A9ta.ts']);
  });

  it('paths held by another issue: 409 PATHS_CLAIMED with each conflict, nothing written', async ({
    onTestFinished,
  }) => {
    const { fake, n1, n2, alice, bob } = await withTwoIssues(onTestFinished);
    expect(
      (await bob.post(claimPath(n1), claimBody('s-bob', { paths: ['src/a.ts', 'docs/'] }))).status,
    ).toBe(201);
    const held = (await bob.get(claimPath(n1))).body.claim;
    const writesBefore = fake.writes().length;
    const answer = await alice.post(
      claimPath(n2),
      claimBody('s-alice', { paths: ['src/b.ts', 'src/a.ts', 'docs/guide/intro.md'] }),
    );
    expect(answer.status).toBe(409);
    expect(answer.body.error).toEqual({
      code: 'PATHS_CLAIMED',
      message: expect.stringContaining(`src/a.ts (${REPO}#${n1} by @bob)`),
      details: {
        conflicts: [
          {
            path: 'src/a.ts',
            heldPath: 'src/a.ts',
            heldBy: held,
            claimAgeMinutes: 0,
            isStale: false,
            warning: `bob claimed src/a.ts 0 min ago (${REPO}#${n1})`,
            recovery: { action: 'wait', message: expect.stringContaining(held.staleAt) },
          },
          {
            path: 'docs/guide/intro.md',
            heldPath: 'docs/',
            heldBy: held,
            claimAgeMinutes: 0,
            isStale: false,
            warning: `bob claimed docs/ 0 min ago (${REPO}#${n1})`,
            recovery: { action: 'wait', message: expect.stringContaining(`${REPO}#${n1}`) },
          },
        ],
      },
    });
    expect(held.paths).toEqual(['src/a.ts', 'docs/']);
    expect(fake.comments(REPO, n2)).toHaveLength(0);
    expect(callerRequests(fake, 'alice').filter((r) => r.method !== 'GET')).toEqual([]);
    expect(fake.writes().length).toBe(writesBefore);
  });

  it('a directory over a held file is refused too', async ({ onTestFinished }) => {
    const { fake, n1, n2, alice, bob } = await withTwoIssues(onTestFinished);
    await bob.post(claimPath(n1), claimBody('s-bob', { paths: ['src/queue/retry.ts'] }));
    const answer = await alice.post(claimPath(n2), claimBody('s-alice', { paths: ['src/'] }));
    expect(answer.status).toBe(409);
    expect(
      answer.body.error.details.conflicts.map((c: { path: string; heldPath: string }) => [
        c.path,
        c.heldPath,
      ]),
    ).toEqual([['src/', 'src/queue/retry.ts']]);
    expect(fake.comments(REPO, n2)).toHaveLength(0);
  });

  it('a quiet holder (heartbeat older than a third of its window): recovery ask', async ({
    onTestFinished,
  }) => {
    const { fake, settle, n1, n2, alice } = await withTwoIssues(onTestFinished);
    const at = new Date(Date.now() - 3 * HOUR);
    fake.addComment(REPO, n1, {
      author: 'bob',
      body: pathClaim('s-bob', ['src/a.ts'], at),
      createdAt: at,
      updatedAt: at,
    });
    await settle();
    const answer = await alice.post(claimPath(n2), claimBody('s-alice', { paths: ['src/a.ts'] }));
    expect(answer.status).toBe(409);
    const [conflict] = answer.body.error.details.conflicts;
    expect(conflict).toMatchObject({
      isStale: true,
      claimAgeMinutes: expect.any(Number),
      recovery: { action: 'ask', message: expect.stringContaining('@bob') },
    });
    expect(conflict.claimAgeMinutes).toBeGreaterThanOrEqual(180);
    expect(conflict.warning).toMatch(
      new RegExp(`^bob claimed src/a.ts \\d+ min ago \\(${REPO}#${n1}\\)$`),
    );
  });

  it('a released holder’s paths are free again', async ({ onTestFinished }) => {
    const { n1, n2, alice, bob } = await withTwoIssues(onTestFinished);
    await bob.post(claimPath(n1), claimBody('s-bob', { paths: ['docs/'] }));
    const body = claimBody('s-alice', { paths: ['docs/api.md'] });
    expect((await alice.post(claimPath(n2), body)).status).toBe(409);
    const released = await bob.delete(claimPath(n1), { session: 's-bob', outcome: 'landed' });
    expect(released.status).toBe(200);
    const answer = await alice.post(claimPath(n2), body);
    expect(answer.status).toBe(201);
    expect(answer.body.claim.paths).toEqual(['docs/api.md']);
  });

  it('GitHub failing while a holder is verified: 503 UNVERIFIABLE, nothing written', async ({
    onTestFinished,
  }) => {
    const { fake, settle, n1, n2, alice, bob } = await withTwoIssues(onTestFinished);
    await bob.post(claimPath(n1), claimBody('s-bob', { paths: ['src/a.ts'] }));
    // Its own webhook echoes reconciled first: only the verification meets the failure.
    await settle();
    fake.inject({
      method: 'GET',
      path: `/repos/${REPO}/issues/${n1}/comments`,
      status: 502,
      times: Infinity,
    });
    const answer = await alice.post(claimPath(n2), claimBody('s-alice', { paths: ['src/a.ts'] }));
    fake.clearInjections();
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('UNVERIFIABLE');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fake.comments(REPO, n2)).toHaveLength(0);
  });
});

describe.concurrent('renewing a path claim', () => {
  it('the same session may change its paths: 200 alreadyHeld, the path line edited', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, n1, n2, alice } = await withTwoIssues(onTestFinished);
    const first = await alice.post(claimPath(n1), claimBody('s-alice', { paths: ['src/a.ts'] }));
    expect(first.status).toBe(201);
    const again = await alice.post(
      claimPath(n1),
      claimBody('s-alice', { paths: ['src/b.ts', 'lib/'] }),
    );
    expect(again.status).toBe(200);
    expect(again.body.alreadyHeld).toBe(true);
    expect(again.body.claim.commentId).toBe(first.body.claim.commentId);
    expect(again.body.claim.paths).toEqual(['src/b.ts', 'lib/']);
    const comments = fake.comments(REPO, n1);
    expect(comments).toHaveLength(1);
    expect(secondLine(comments[0]?.body)).toBe(renderPathLine(['src/b.ts', 'lib/']));
    expect(comments[0]?.body.match(/<!-- claim-paths /g)).toHaveLength(1);
    // The paths given up are free for another issue at once.
    const bob = await caller(appUrl, fake, 'bob').post(
      claimPath(n2),
      claimBody('s-bob', { paths: ['src/a.ts'] }),
    );
    expect(bob.status).toBe(201);
  });

  it('a renewal without paths keeps the path line; one adding paths adds it', async ({
    onTestFinished,
  }) => {
    const { fake, n1, n2, alice } = await withTwoIssues(onTestFinished);
    await alice.post(claimPath(n1), claimBody('s-alice', { paths: ['src/a.ts'] }));
    const kept = await alice.post(claimPath(n1), claimBody('s-alice'));
    expect(kept.body.claim.paths).toEqual(['src/a.ts']);
    await alice.post(claimPath(n2), claimBody('s-two'));
    const added = await alice.post(claimPath(n2), claimBody('s-two', { paths: ['docs/'] }));
    expect(added.status).toBe(200);
    expect(added.body.claim.paths).toEqual(['docs/']);
    expect(secondLine(fake.comments(REPO, n2)[0]?.body)).toBe(renderPathLine(['docs/']));
  });

  it('a renewal onto paths held elsewhere: 409 PATHS_CLAIMED and the comment is untouched', async ({
    onTestFinished,
  }) => {
    const { fake, n1, n2, alice, bob } = await withTwoIssues(onTestFinished);
    await bob.post(claimPath(n1), claimBody('s-bob', { paths: ['docs/'] }));
    await alice.post(claimPath(n2), claimBody('s-alice', { paths: ['src/a.ts'] }));
    const before = fake.comments(REPO, n2)[0]?.body;
    const answer = await alice.post(
      claimPath(n2),
      claimBody('s-alice', { paths: ['src/a.ts', 'docs/x.md'] }),
    );
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('PATHS_CLAIMED');
    expect(answer.body.error.details.conflicts[0]).toMatchObject({
      path: 'docs/x.md',
      heldPath: 'docs/',
    });
    expect(fake.comments(REPO, n2)[0]?.body).toBe(before);
  });
});

describe.concurrent('GET …/repos/{o}/{r}/paths', () => {
  it('answers each path: available, held by another, held by the caller', async ({
    onTestFinished,
  }) => {
    const { fake, n1, n2, alice, bob } = await withTwoIssues(onTestFinished);
    await bob.post(claimPath(n1), claimBody('s-bob', { paths: ['docs/'] }));
    await alice.post(claimPath(n2), claimBody('s-alice', { paths: ['src/a.ts'] }));
    const bobs = (await bob.get(claimPath(n1))).body.claim;
    const alices = (await alice.get(claimPath(n2))).body.claim;
    const answer = await alice.get(checkPath(['src/b.ts', 'docs/guide.md', 'src/a.ts']));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      paths: [
        { path: 'src/b.ts', available: true },
        {
          path: 'docs/guide.md',
          available: false,
          heldPath: 'docs/',
          heldBy: bobs,
          isSelf: false,
          isStale: false,
          claimedAt: bobs.started,
        },
        {
          path: 'src/a.ts',
          available: false,
          heldPath: 'src/a.ts',
          heldBy: alices,
          isSelf: true,
          isStale: false,
          claimedAt: alices.started,
        },
      ],
    });
    // Checking writes nothing.
    expect(callerRequests(fake, 'alice').filter((r) => r.method !== 'GET')).toHaveLength(1);
  });

  it('a quiet holder is reported isStale; a holder gone stale holds nothing, without a sweep', async ({
    onTestFinished,
  }) => {
    const { fake, settle, app, installationId, n1, n2, alice } =
      await withTwoIssues(onTestFinished);
    const quietAt = new Date(Date.now() - 3 * HOUR);
    fake.addComment(REPO, n1, {
      author: 'bob',
      body: pathClaim('s-quiet', ['src/quiet.ts'], quietAt),
      createdAt: quietAt,
      updatedAt: quietAt,
    });
    await settle();
    // The index still names a holder whose claim has gone stale since (no reconcile, no sweep).
    fake.pauseWebhooks();
    const staleAt = new Date(Date.now() - 7 * HOUR);
    const stale = fake.addComment(REPO, n2, {
      author: 'bob',
      body: pathClaim('s-stale', ['src/stale.ts'], staleAt),
      createdAt: staleAt,
      updatedAt: staleAt,
    });
    await app.warden.store.setPathHolder(
      { installationId, owner: 'acme', repo: 'widgets', number: n2 },
      {
        commentId: stale.id,
        session: 's-stale',
        author: 'bob',
        branch: 'feat/s-stale',
        heartbeat: new Date(Date.now() - HOUR),
        paths: ['src/stale.ts'],
      },
    );
    const answer = await alice.get(checkPath(['src/quiet.ts', 'src/stale.ts']));
    expect(answer.status).toBe(200);
    expect(answer.body.paths).toEqual([
      expect.objectContaining({ path: 'src/quiet.ts', available: false, isStale: true }),
      { path: 'src/stale.ts', available: true },
    ]);
    // Verified from the thread: the stale claim's issue was read, not taken from the index.
    expect(fake.count('GET', `/repos/${REPO}/issues/${n2}/comments`)).toBeGreaterThan(0);
    fake.resumeWebhooks();
  });

  it('a path nobody holds costs no thread read', async ({ onTestFinished }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const n1 = fake.createIssue(REPO);
    await caller(appUrl, fake, 'bob').post(claimPath(n1), claimBody('s-bob', { paths: ['docs/'] }));
    const alice = caller(appUrl, fake, 'alice');
    await alice.get(checkPath(['src/warm.ts']));
    const before = fake.count('GET', /\/comments$/);
    const answer = await alice.get(checkPath(['src/a.ts', 'lib/']));
    expect(answer.body.paths).toEqual([
      { path: 'src/a.ts', available: true },
      { path: 'lib/', available: true },
    ]);
    expect(fake.count('GET', /\/comments$/)).toBe(before);
  });

  it.each([
    ['', 'paths=a,b'],
    ['?paths=', 'paths=a,b'],
    ['?paths=src/../x', '. or ..'],
    ['?paths=a,a', 'listed twice'],
    ['?paths=a&paths=b', 'paths=a,b'],
  ])('query %j: 422 INVALID_INPUT naming paths', async (query, problem) => {
    const { fake, appUrl } = await sharedHarness();
    const answer = await caller(appUrl, fake, 'alice').get(`/repos/${REPO}/paths${query}`);
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('INVALID_INPUT');
    expect(answer.body.error.details.fields.paths).toContain(problem);
  });

  it('same auth and visibility as the other routes: 401 without a token, 404 elsewhere', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished, {
      seed: (f) => f.addRepo('elsewhere/thing', { installationId: null }),
    });
    const none = await callApi(appUrl, 'GET', checkPath(['a']));
    expect(none.status).toBe(401);
    const missing = await caller(appUrl, fake, 'alice').get('/repos/elsewhere/thing/paths?paths=a');
    expect(missing.status).toBe(404);
    const post = await caller(appUrl, fake, 'alice').post(`/repos/${REPO}/paths?paths=a`, {});
    expect(post.status).toBe(405);
  });
});
