/**
 * What an outsider learns from the claims API (docs/protocol.md §8 "Nothing leaks"): every
 * route establishes that the caller's token can read the repository before anything else, and
 * whatever the caller cannot read answers one and the same 404; heartbeat and release need the
 * trust a claim needs. Through the real server and the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { claimComment, harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import {
  type Answer,
  callApi,
  caller,
  claimBody,
  claimPath,
  heldByBob,
  withIssue,
} from './api-helpers.js';

const SECRET = 'acme/secret';

/** Every claims-API call on one issue, as `who` would make it with a session of bob's. */
function issueCalls(as: ReturnType<typeof caller>, repo: string, n: number) {
  return [
    () => as.get(claimPath(n, repo)),
    () => as.post(claimPath(n, repo), claimBody('s-mal')),
    () => as.post(`${claimPath(n, repo)}/heartbeat`, { session: 's-bob' }),
    () => as.delete(claimPath(n, repo), { session: 's-bob', outcome: 'abandoned' }),
    () => as.delete(claimPath(n, repo), { outcome: 'abandoned' }),
  ];
}

describe.concurrent('a repository the caller cannot read', () => {
  it('private, missing, not installed, or an issue that does not exist: one and the same 404 on every route', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      seed: (f) => {
        f.addRepo(SECRET, { private: true });
        f.addRepo('acme/closet', { private: true, installationId: null });
        f.addRepo('elsewhere/open', { installationId: null });
      },
    });
    const n = fake.createIssue(SECRET, { title: 'Rotate the keys' });
    fake.addComment(SECRET, n, { author: 'bob', body: claimComment('s-bob') });
    await settle();
    const mallory = caller(appUrl, fake, 'mallory');
    fake.clearRequests();
    const answers: Answer[] = [];
    // A private issue that exists and is held, its neighbour that does not exist, a missing
    // repository, a private one without the app and a public one without the app.
    for (const [repo, number] of [
      [SECRET, n],
      [SECRET, n + 1],
      ['acme/nothing', 1],
      ['acme/closet', 1],
      ['elsewhere/open', 1],
    ] as const) {
      for (const call of issueCalls(mallory, repo, number)) answers.push(await call());
    }
    answers.push(await mallory.get(`/repos/${SECRET}/paths?paths=src/`));
    answers.push(await mallory.get('/repos/acme/nothing/paths?paths=src/'));
    // A collaborator asking for an issue that does not exist on a repository she reads.
    answers.push(await caller(appUrl, fake, 'alice').get(claimPath(999)));
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
      const text = JSON.stringify(answer.body);
      for (const secret of ['bob', 's-bob', 'Rotate', 'feat/', 'comment', 'role']) {
        expect(text).not.toContain(secret);
      }
    }
    // The same message whatever the reason: nothing tells the cases apart.
    const issueMessages = new Set(answers.filter((_, i) => i < 25 || i === 27).map(messageOf));
    expect(issueMessages.size).toBe(1);
    expect(new Set(answers.slice(25, 27).map(messageOf)).size).toBe(1);
    // Nothing was read (no thread, no permission) or written on the private issue for mallory.
    expect(fake.requests.filter((r) => r.path.startsWith(`/repos/${SECRET}/`))).toEqual([]);
    expect(fake.comments(SECRET, n)).toHaveLength(1);
    expect(
      fake.writes().filter((r) => r.path.includes('/comments') && r.actor === 'mallory'),
    ).toEqual([]);
  });

  it('the work queue never lists a private repository the caller cannot read', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      seed: (f) => f.addRepo(SECRET, { private: true }),
    });
    const n = fake.createIssue(SECRET);
    fake.addComment(SECRET, n, { author: 'bob', body: claimComment('s-bob') });
    await settle();
    const listed = await caller(appUrl, fake, 'mallory').get(`/issues?repo=${SECRET}`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([]);
    const bobs = await caller(appUrl, fake, 'bob').get(`/issues?repo=${SECRET}`);
    expect(bobs.body.items).toHaveLength(1);
  });
});

describe.concurrent('the one 404 after the caller listed the queue', () => {
  it('an installed private repository costs the same GitHub calls as a missing one or one without the app', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      seed: (f) => {
        f.addRepo(SECRET, { private: true });
        f.addRepo('acme/closet', { private: true, installationId: null });
      },
    });
    const n = fake.createIssue(SECRET);
    fake.addComment(SECRET, n, { author: 'bob', body: claimComment('s-bob') });
    await settle();
    const mallory = caller(appUrl, fake, 'mallory');
    // The queue checks every installed repository with mallory's token, SECRET among them.
    expect((await mallory.get('/issues')).status).toBe(200);
    const callsOf = async (repo: string) => {
      fake.clearRequests();
      const answer = await mallory.get(claimPath(1, repo));
      expect(answer.status).toBe(404);
      return fake.requests.map((r) => `${r.actor} ${r.method} ${r.path.replace(repo, '{repo}')}`);
    };
    const installed = await callsOf(SECRET);
    const missing = await callsOf('acme/nothing');
    const withoutApp = await callsOf('acme/closet');
    expect(installed).toEqual(['mallory GET /repos/{repo}']);
    expect(missing).toEqual(installed);
    expect(withoutApp).toEqual(installed);
    // Asked again, each answers the same way again: no kept "cannot read" answers faster.
    expect(await callsOf(SECRET)).toEqual(installed);
    expect(await callsOf('acme/nothing')).toEqual(installed);
  });
});

describe.concurrent('a read-only caller on a repository it can read', () => {
  it('may read the claim, but heartbeat and release are 403 and never show the holder', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, n, held } = await heldByBob(onTestFinished);
    const mallory = caller(appUrl, fake, 'mallory');
    // GET …/claim: mallory can read the thread on GitHub anyway.
    const read = await mallory.get(claimPath(n));
    expect(read.status).toBe(200);
    expect(read.body.claim).toMatchObject({ commentId: held.id, author: 'bob' });
    fake.clearRequests();
    const refused = [
      await mallory.post(claimPath(n), claimBody('s-mal')),
      await mallory.post(`${claimPath(n)}/heartbeat`, { session: 's-bob' }),
      await mallory.delete(claimPath(n), { session: 's-bob', outcome: 'abandoned' }),
      // An issue that does not exist: the same 403, so trust is decided before the issue.
      await mallory.post(`${claimPath(999)}/heartbeat`, { session: 's-bob' }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('NOT_TRUSTED');
      expect(answer.body.error.message).toContain('write, maintain or admin');
      expect(JSON.stringify(answer.body)).not.toContain('s-bob');
      expect(answer.body.error.details?.holder).toBeUndefined();
    }
    const admin = await mallory.delete(claimPath(n), { outcome: 'abandoned' });
    expect(admin.status).toBe(403);
    expect(admin.body.error.code).toBe('NOT_ALLOWED');
    // None of them read the thread.
    expect(fake.count('GET', `/repos/${REPO}/issues/${n}/comments`)).toBe(0);
    expect(fake.count('GET', `/repos/${REPO}/issues/${n}`)).toBe(0);
    expect(fake.comment(held.id)?.body).toContain('stage=claimed');
  });
});

describe.concurrent('request bodies', () => {
  it.for(['__proto__', 'constructor', 'prototype'])(
    'a body key %s is 422 INVALID_INPUT naming it, nothing written',
    async (key, { onTestFinished }) => {
      const { fake, appUrl, n } = await withIssue(onTestFinished);
      const answer = await callApi(appUrl, 'POST', claimPath(n), {
        token: fake.tokenFor('alice'),
        rawBody: `{"session":"s-1","lane":"l","branch":"b","${key}":{"isAdmin":true}}`,
      });
      expect(answer.status).toBe(422);
      expect(answer.body.error.code).toBe('INVALID_INPUT');
      expect(Object.keys(answer.body.error.details.fields)).toEqual([key]);
      expect(answer.body.error.message).toContain(key);
      expect(fake.comments(REPO, n)).toHaveLength(0);
    },
  );
});

function messageOf(answer: Answer): string {
  return answer.body.error.message;
}
