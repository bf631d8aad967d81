/**
 * The work queue of docs/protocol.md §9 (`GET /api/claims/v1/issues`), every filter, through
 * the real server and the fake GitHub: answered from the app's index of open issues, kept by
 * `issues` events, reconciles and the resync.
 */
import { describe, expect, it } from 'vitest';
import { claimComment, harnessFor } from '../e2e/e2e-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { REPO, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import { callApi, caller, claimBody, claimPath, withIssue } from './api-helpers.js';

/** Moves the fake's clock one second on at every reading, from `start`. */
function tick(fake: FakeGitHub, start: number): void {
  let t = start;
  fake.clock = () => {
    t += 1000;
    return new Date(t);
  };
}

type Item = { issue: { repo: string; number: number }; claim: { author: string } | null };
const numbers = (body: { items: Item[] }) =>
  body.items.map((i) => `${i.issue.repo}#${i.issue.number}`);

describe.concurrent('GET /api/claims/v1/issues', () => {
  it('lists open issues oldest first, follows issues events, and pages with a cursor', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished);
    tick(fake, Date.parse('2026-01-01T00:00:00Z'));
    const [a, b, c, d] = [1, 2, 3, 4].map(() => fake.createIssue(REPO, { title: 'work' }));
    fake.createIssue(REPO, { isPullRequest: true });
    await settle();
    const alice = caller(appUrl, fake, 'alice');
    expect(numbers((await alice.get('/issues')).body)).toEqual(
      [a, b, c, d].map((n) => `${REPO}#${n}`),
    );

    fake.closeIssue(REPO, b!);
    fake.deleteIssue(REPO, c!);
    await settle();
    expect(numbers((await alice.get('/issues')).body)).toEqual([`${REPO}#${a}`, `${REPO}#${d}`]);
    fake.reopenIssue(REPO, b!);
    await settle();

    const first = await alice.get('/issues?limit=2');
    expect(numbers(first.body)).toEqual([`${REPO}#${a}`, `${REPO}#${b}`]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await alice.get(`/issues?limit=2&cursor=${first.body.nextCursor}`);
    expect(numbers(second.body)).toEqual([`${REPO}#${d}`]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('claimable, claimedBy, assignedToMe, label and repo filters combine with AND', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      seed: (f) => {
        f.addRepo('acme/gears');
        // Part two's queue: with people's claims on, alice's assignment there holds (§16).
        f.setFile('acme/gears', '.github/claims.yml', 'people:\n  enabled: false\n');
      },
    });
    // One second apart, so "oldest first" is one order.
    tick(fake, Date.now() - 60_000);
    const free = fake.createIssue(REPO, { labels: ['bug'] });
    const mine = fake.createIssue(REPO, { labels: ['bug'] });
    const bobs = fake.createIssue(REPO);
    const assigned = fake.createIssue('acme/gears', { assignees: ['alice'] });
    const later = fake.createIssue('acme/gears');
    await settle();
    const alice = caller(appUrl, fake, 'alice');
    expect((await alice.post(claimPath(mine), claimBody('s-1'))).status).toBe(201);
    fake.addComment(REPO, bobs, { author: 'bob', body: claimComment('s-bob') });
    await settle();

    const q = async (query: string) => numbers((await alice.get(`/issues?${query}`)).body);
    const ref = (repo: string, n: number) => `${repo}#${n}`;
    expect(await q('claimable=true')).toEqual([
      ref(REPO, free),
      ref('acme/gears', assigned),
      ref('acme/gears', later),
    ]);
    expect(await q('claimable=false')).toEqual([ref(REPO, mine), ref(REPO, bobs)]);
    expect(await q('claimedBy=me')).toEqual([ref(REPO, mine)]);
    expect(await q('claimedBy=bob')).toEqual([ref(REPO, bobs)]);
    expect(await q('assignedToMe=true')).toEqual([ref(REPO, mine), ref('acme/gears', assigned)]);
    expect(await q('label=bug')).toEqual([ref(REPO, free), ref(REPO, mine)]);
    expect(await q('label=bug&claimable=true')).toEqual([ref(REPO, free)]);
    expect(await q('repo=acme/gears')).toEqual([
      ref('acme/gears', assigned),
      ref('acme/gears', later),
    ]);
    const held = (await alice.get('/issues?claimedBy=me')).body.items[0];
    expect(held.claim).toMatchObject({ author: 'alice', session: 's-1', issue: ref(REPO, mine) });
    expect(held.issue).not.toHaveProperty('state');
  });

  it('a queue item’s claim is the claim object GET …/claim answers, paths included', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished);
    tick(fake, Date.now() - 60_000);
    const viaApi = fake.createIssue(REPO);
    const viaComment = fake.createIssue(REPO);
    const noPaths = fake.createIssue(REPO);
    await settle();
    const alice = caller(appUrl, fake, 'alice');
    const claimed = await alice.post(
      claimPath(viaApi),
      claimBody('s-1', { paths: ['src/queue/', 'docs/a.md'] }),
    );
    expect(claimed.status).toBe(201);
    // A claim comment posted by another client, with its path line (docs/protocol.md §10).
    const [marker, ...rest] = claimComment('s-bob').split('\n');
    const line = '<!-- claim-paths v=1 paths=src/api/,README.md -->';
    fake.addComment(REPO, viaComment, { author: 'bob', body: [marker, line, ...rest].join('\n') });
    fake.addComment(REPO, noPaths, { author: 'bob', body: claimComment('s-other') });
    await settle();

    const items = (await alice.get('/issues?claimable=false')).body.items;
    expect(items.map((i: Item) => i.issue.number)).toEqual([viaApi, viaComment, noPaths]);
    for (const item of items) {
      const single = await alice.get(claimPath(item.issue.number));
      expect(item.claim).toEqual(single.body.claim);
    }
    expect(items.map((i: { claim: { paths?: string[] } }) => i.claim.paths)).toEqual([
      ['src/queue/', 'docs/a.md'],
      ['src/api/', 'README.md'],
      undefined,
    ]);
  });

  it('queue.labels and queue.exclude of claims.yml decide what is claimable', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      seed: (f) =>
        f.setFile(REPO, '.github/claims.yml', 'queue:\n  labels: [ready]\n  exclude: [wontfix]\n'),
    });
    const ready = fake.createIssue(REPO, { labels: ['ready'] });
    fake.createIssue(REPO, { labels: ['ready', 'wontfix'] });
    fake.createIssue(REPO);
    await settle();
    const answer = await caller(appUrl, fake, 'alice').get('/issues?claimable=true');
    expect(numbers(answer.body)).toEqual([`${REPO}#${ready}`]);
  });

  it('a claim past its stale time is neither held nor offered until its branch is checked (docs/protocol.md §17)', async ({
    onTestFinished,
  }) => {
    // The app's clock, moved past the claim's stale time once it is indexed as live.
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const { fake, settle, n, alice } = await withIssue(onTestFinished, {
      env: { CLAIMS_SWEEP_INTERVAL: '1h' },
      seed: (f) => f.setFile(REPO, '.github/claims.yml', 'staleAfter: 10m\n'),
      main: { now },
    });
    // Five minutes into its ten when the reconcile indexes it.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000);
    fake.addComment(REPO, n, {
      author: 'bob',
      body: claimComment('s-bob', { at }),
      createdAt: at,
      updatedAt: at,
    });
    await settle();
    expect(numbers((await alice.get('/issues?claimable=false')).body)).toEqual([`${REPO}#${n}`]);
    offset = 6 * 60_000;
    fake.clearRequests();
    // Its branch may hold work for review: not offered until a compare answers, not held.
    expect(numbers((await alice.get('/issues?claimable=true')).body)).toEqual([]);
    expect(numbers((await alice.get('/issues?claimable=false')).body)).toEqual([]);
    const answer = await alice.get('/issues');
    expect(answer.body.items[0].claim).toBeNull();
    // Nobody reconciled it meanwhile: the stale comment is still unreleased on GitHub.
    expect(fake.writes().filter((r) => !r.path.startsWith('/app/'))).toEqual([]);
  });

  it('only repositories the caller’s token can read, and no GitHub call once cached', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      seed: (f) => f.addRepo('acme/secret', { private: true }),
    });
    tick(fake, Date.now() - 60_000);
    const open = fake.createIssue(REPO);
    const secret = fake.createIssue('acme/secret');
    await settle();
    expect(numbers((await caller(appUrl, fake, 'alice').get('/issues')).body)).toEqual([
      `${REPO}#${open}`,
      `acme/secret#${secret}`,
    ]);
    const mallory = caller(appUrl, fake, 'mallory');
    expect(numbers((await mallory.get('/issues')).body)).toEqual([`${REPO}#${open}`]);
    fake.clearRequests();
    await mallory.get('/issues?claimable=true');
    await mallory.get('/issues');
    expect(fake.requests).toEqual([]);
  });

  it('bad filters are 422 naming each; claimedBy=me without a token is 401', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const answer = await caller(appUrl, fake, 'alice').get(
      '/issues?claimable=maybe&limit=101&cursor=zz&repo=nope&colour=red',
    );
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.error.details.fields).sort()).toEqual([
      'claimable',
      'colour',
      'cursor',
      'limit',
      'repo',
    ]);
    const anonymous = await callApi(appUrl, 'GET', '/issues?claimedBy=me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('claimable=true costs no GitHub call for a repository whose claims.yml the app read lately', async ({
    onTestFinished,
  }) => {
    // No config cache: every read of claims.yml goes to GitHub, so only the kept settings
    // can answer the query without one.
    const { fake, appUrl, settle } = await harnessFor(onTestFinished, {
      env: { CLAIMS_CONFIG_CACHE: '0s' },
      seed: (f) => f.setFile(REPO, '.github/claims.yml', 'queue:\n  labels: [ready]\n'),
    });
    const ready = fake.createIssue(REPO, { labels: ['ready'] });
    const other = fake.createIssue(REPO);
    fake.addComment(REPO, other, { author: 'bob', body: claimComment('s-bob') });
    await settle();
    const alice = caller(appUrl, fake, 'alice');
    await alice.get('/issues');
    fake.clearRequests();

    expect(numbers((await alice.get('/issues?claimable=true')).body)).toEqual([`${REPO}#${ready}`]);
    expect(fake.requests).toEqual([]);

    // The file changes; the next read of it (here bob's release is reconciled) moves the queue.
    fake.setFile(REPO, '.github/claims.yml', 'queue:\n  labels: []\n');
    const [bobs] = fake.comments(REPO, other);
    fake.editComment(bobs!.id, claimComment('s-bob', { stage: 'released', outcome: 'landed' }));
    await settle();
    expect(numbers((await alice.get('/issues?claimable=true')).body)).toEqual([
      `${REPO}#${ready}`,
      `${REPO}#${other}`,
    ]);
  });

  it('a claim on an issue whose opening was never delivered is listed once reconciled', async ({
    onTestFinished,
  }) => {
    // Nothing for the app to write (the label is there, no assignee is wanted), so no echo of
    // its own writes announces the issue either.
    const harness = await harnessFor(onTestFinished, {
      seed: (f) => f.setFile(REPO, '.github/claims.yml', 'assign: false\n'),
    });
    const { fake } = harness;
    // GitHub's `issues.opened` delivery for the issue is lost (no resync has run since).
    fake.setWebhookTarget(undefined);
    const n = fake.createIssue(REPO, { title: 'never announced', labels: ['status:in-progress'] });
    fake.setWebhookTarget({ url: harness.webhookUrl, secret: WEBHOOK_SECRET });
    const alice = caller(harness.appUrl, fake, 'alice');
    expect(numbers((await alice.get('/issues')).body)).toEqual([]);

    fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-bob') });
    await harness.settle();
    const answer = await alice.get('/issues?claimable=false');
    expect(numbers(answer.body)).toEqual([`${REPO}#${n}`]);
    expect(answer.body.items[0]).toMatchObject({
      issue: { title: 'never announced' },
      claim: { author: 'bob', session: 's-bob' },
    });
  });

  it('the resync lists open issues opened while the app was away', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    await harness.stopApp();
    const n = fake.createIssue(REPO, { title: 'opened while down' });
    await harness.startApp();
    const answer = await caller(harness.appUrl, fake, 'alice').get('/issues');
    expect(numbers(answer.body)).toEqual([`${REPO}#${n}`]);
    expect(answer.body.items[0].issue.title).toBe('opened while down');
  });
});
