/**
 * Hosted agents end to end (docs/protocol.md §18): GitHub's Copilot agent assigned, Claude's
 * integration opening a pull request, on the real app against the fake GitHub, one replica.
 * Each test starts its own fake and app; time moves with the shared clock.
 */
import { describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { callApi } from '../api/api-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { REPO, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import { calls, claimComment, harnessFor, IN_PROGRESS } from './e2e-helpers.js';
import { oneReplica, type PeopleWorld } from './people-world.js';

const ON = 'people:\n  enabled: true\n';
const OFF = 'people:\n  enabled: false\n';
const TIMELINE = /\/issues\/\d+\/timeline$/;

/** The bots GitHub shows: Copilot without a suffix, Claude's app with one. */
function seedBots(fake: FakeGitHub): void {
  fake.addUser('Copilot', { type: 'Bot' });
  fake.addUser('claude[bot]', { type: 'Bot' });
  fake.addUser('mia', { association: 'COLLABORATOR' });
}

function marker(fake: FakeGitHub, id: number) {
  return parseClaimMarker(fake.comment(id)?.body ?? '');
}

function appNotes(fake: FakeGitHub, n: number): string[] {
  return fake
    .comments(REPO, n)
    .filter((c) => c.user.login === fake.botLogin && parseClaimMarker(c.body) === null)
    .map((c) => c.body);
}

async function claimByApi(world: PeopleWorld, n: number, session: string) {
  return callApi(world.appUrl, 'POST', `/repos/${REPO}/issues/${n}/claim`, {
    token: world.fake.tokenFor('alice'),
    body: { session, lane: 'lane-1', branch: `feat/${session}` },
  });
}

async function claimable(world: PeopleWorld): Promise<number[]> {
  const answer = await callApi(world.appUrl, 'GET', `/issues?claimable=true&repo=${REPO}`, {
    token: world.fake.tokenFor('alice'),
  });
  expect(answer.status).toBe(200);
  return answer.body.items.map((item: { issue: { number: number } }) => item.issue.number);
}

async function world(onTestFinished: Parameters<typeof oneReplica>[0], config = ON) {
  const w = await oneReplica(onTestFinished, config);
  seedBots(w.fake);
  return w;
}

describe.concurrent('hosted agents hold issues (docs/protocol.md §18)', () => {
  it('Copilot assigned: the API answers 409 kind hosted, a later marker is finalised, the queue leaves it out, Copilot stays assigned', async ({
    onTestFinished,
  }) => {
    const w = await world(onTestFinished);
    const { fake } = w;
    const n = fake.createIssue(REPO);
    const free = fake.createIssue(REPO);
    fake.assign(REPO, n, ['Copilot'], { actor: 'mia' });
    await w.settle();
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);

    const refused = await claimByApi(w, n, 's-api');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ISSUE_ALREADY_CLAIMED');
    expect(refused.body.error.details.holder).toMatchObject({
      kind: 'hosted',
      author: 'Copilot',
      session: null,
      lane: null,
      commentId: null,
      staleAt: null,
    });
    const got = await callApi(w.appUrl, 'GET', `/repos/${REPO}/issues/${n}/claim`, {
      token: fake.tokenFor('alice'),
    });
    expect(got.body.claim).toMatchObject({ kind: 'hosted', author: 'Copilot' });

    w.advance(60_000);
    const late = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-late', { at: fake.clock() }),
    }).id;
    await w.settle();
    expect(marker(fake, late)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(fake.comment(late)?.body).toContain('Copilot is working on this (assigned by @mia)');
    expect(await claimable(w)).toEqual([free]);
    expect(fake.issue(REPO, n).assignees).toEqual(['Copilot']);
    const unassigns = fake
      .writes()
      .filter((r) => r.method === 'DELETE' && /assignees/.test(r.path));
    expect(unassigns).toEqual([]);
  });

  it('claude[bot]’s pull request "Fixes #N" holds #N, and frees it when closed unmerged', async ({
    onTestFinished,
  }) => {
    const w = await world(onTestFinished);
    const { fake } = w;
    const n = fake.createIssue(REPO);
    const pull = fake.openPullRequest(REPO, {
      head: 'claude/issue-fix',
      files: ['src/a.ts'],
      author: 'claude[bot]',
      body: `This change fixes #${n}.\n\nFixes #${n}`,
    });
    await w.settle();
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    const held = await callApi(w.appUrl, 'GET', `/repos/${REPO}/issues/${n}/claim`, {
      token: fake.tokenFor('alice'),
    });
    expect(held.body.claim).toMatchObject({
      kind: 'hosted',
      author: 'claude[bot]',
      branch: 'claude/issue-fix',
    });
    expect((await claimByApi(w, n, 's-early')).status).toBe(409);
    // Someone else's comment (no marker, no command) changes nothing: the hosted agent still
    // holds the issue through its pull request.
    fake.addComment(REPO, n, { author: 'bob', body: 'looks good' });
    await w.settle();
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);

    fake.closePullRequest(REPO, pull, 'maria');
    await w.settle();
    expect(fake.issue(REPO, n).labels).toEqual([]);
    const after = await callApi(w.appUrl, 'GET', `/repos/${REPO}/issues/${n}/claim`, {
      token: fake.tokenFor('alice'),
    });
    expect(after.body.claim).toBeNull();
    expect((await claimByApi(w, n, 's-after')).status).toBe(201);
  });

  it('an earlier agent claim keeps the issue against a writer’s Copilot assignment: one note on the issue and one on the pull request', async ({
    onTestFinished,
  }) => {
    const w = await world(onTestFinished);
    const { fake } = w;
    const n = fake.createIssue(REPO);
    const claim = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-agent', { at: fake.clock() }),
    }).id;
    await w.settle();
    w.advance(60_000);
    fake.assign(REPO, n, ['Copilot'], { actor: 'mia' });
    await w.settle();
    expect(marker(fake, claim)?.stage).toBe('claimed');
    const notes = appNotes(fake, n).filter((b) => b.includes('may be duplicated'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('@mia assigned Copilot');
    expect(notes[0]).toContain(`#${n} is held by @alice's session since`);

    const pull = fake.openPullRequest(REPO, {
      head: 'copilot/fix',
      files: ['src/b.ts'],
      author: 'Copilot',
      body: `Closes #${n}`,
    });
    await w.settle();
    fake.addComment(REPO, n, { author: 'bob', body: 'any news?' });
    await w.settle();
    const onPull = appNotes(fake, pull).filter((b) => b.includes('may be duplicated'));
    expect(onPull).toHaveLength(1);
    expect(appNotes(fake, n).filter((b) => b.includes('may be duplicated'))).toHaveLength(1);
    expect(marker(fake, claim)?.stage).toBe('claimed');

    // The agent's claim ends: Copilot, still assigned, holds the issue then.
    fake.editComment(
      claim,
      claimComment('s-agent', { at: fake.clock(), stage: 'released', outcome: 'abandoned' }),
    );
    await w.settle();
    const now = await callApi(w.appUrl, 'GET', `/repos/${REPO}/issues/${n}/claim`, {
      token: fake.tokenFor('alice'),
    });
    expect(now.body.claim).toMatchObject({ kind: 'hosted', author: 'Copilot' });
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
  });

  it('a maintainer’s Copilot assignment hands an agent’s claim over', async ({
    onTestFinished,
  }) => {
    const w = await world(onTestFinished);
    const { fake } = w;
    const n = fake.createIssue(REPO);
    const claim = fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-agent', { at: fake.clock() }),
    }).id;
    await w.settle();
    w.advance(60_000);
    fake.assign(REPO, n, ['Copilot'], { actor: 'maria' });
    await w.settle();
    expect(marker(fake, claim)).toMatchObject({ stage: 'released', outcome: 'handed-over' });
    expect(fake.comment(claim)?.body).toContain('handed to @Copilot by @maria');
    expect(fake.issue(REPO, n).assignees).toContain('Copilot');
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
  });

  it('agents.hosted: [] turns hosted claims off', async ({ onTestFinished }) => {
    const w = await world(onTestFinished, `${ON}agents:\n  hosted: []\n`);
    const { fake } = w;
    const n = fake.createIssue(REPO);
    fake.assign(REPO, n, ['Copilot'], { actor: 'mia' });
    await w.settle();
    expect(fake.issue(REPO, n).labels).toEqual([]);
    expect((await claimByApi(w, n, 's-api')).status).toBe(201);
  });

  it('an issue with neither signal costs no timeline read', async ({ onTestFinished }) => {
    const w = await world(onTestFinished);
    const { fake } = w;
    const n = fake.createIssue(REPO);
    fake.clearRequests();
    fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-plain', { at: fake.clock() }),
    });
    await w.settle();
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    expect(fake.count('GET', TIMELINE)).toBe(0);
  });

  it('people’s claims off: a Copilot assignment still holds (409 kind hosted, the queue leaves it out), and no /claim runs', async ({
    onTestFinished,
  }) => {
    const w = await world(onTestFinished, OFF);
    const { fake } = w;
    const n = fake.createIssue(REPO);
    const free = fake.createIssue(REPO);
    fake.assign(REPO, n, ['Copilot'], { actor: 'mia' });
    await w.settle();
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    const refused = await claimByApi(w, n, 's-api');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ISSUE_ALREADY_CLAIMED');
    expect(refused.body.error.details.holder).toMatchObject({ kind: 'hosted', author: 'Copilot' });
    expect(await claimable(w)).toEqual([free]);

    // §16 stays off: a /claim is no command, a person's assignment no claim.
    const command = fake.addComment(REPO, free, { author: 'bob', body: '/claim' }).id;
    fake.assign(REPO, free, ['bob'], { actor: 'bob' });
    await w.settle();
    expect(fake.reactions(command)).toEqual([]);
    expect(appNotes(fake, free)).toEqual([]);
    expect(fake.issue(REPO, free).labels).toEqual([]);
    expect(await claimable(w)).toEqual([free]);

    // Copilot unassigned: the issue is free again.
    fake.unassign(REPO, n, ['Copilot'], { actor: 'mia' });
    await w.settle();
    expect(fake.issue(REPO, n).labels).toEqual([]);
    expect((await claimByApi(w, n, 's-after')).status).toBe(201);
  });

  it('people’s claims off: an issue with neither signal costs the same GitHub calls as with hosted agents off', async ({
    onTestFinished,
  }) => {
    const script = async (w: PeopleWorld) => {
      const { fake } = w;
      const marked = fake.createIssue(REPO);
      const assigned = fake.createIssue(REPO);
      fake.clearRequests();
      fake.addComment(REPO, marked, {
        author: 'alice',
        body: claimComment('s-plain', { at: fake.clock() }),
      });
      await w.settle();
      fake.addComment(REPO, marked, { author: 'bob', body: 'any news?' });
      fake.assign(REPO, assigned, ['bob'], { actor: 'bob' });
      fake.addComment(REPO, assigned, { author: 'carol', body: '/claim' });
      await w.settle();
      expect(fake.issue(REPO, marked).labels).toEqual([IN_PROGRESS]);
      return calls(fake.requests.filter((r) => !r.path.startsWith('/app/')))
        .map((call) => call.replace(/\/issues\/\d+/, '/issues/N'))
        .sort();
    };
    const hostedOn = await script(await world(onTestFinished, OFF));
    const hostedOff = await script(await world(onTestFinished, `${OFF}agents:\n  hosted: []\n`));
    expect(hostedOn.length).toBeGreaterThan(0);
    expect(hostedOn).toEqual(hostedOff);
    expect(hostedOn.filter((call) => TIMELINE.test(call))).toEqual([]);
  });

  it('a pull request known only from the timeline: its head is read once (conditionally) for the claim’s branch', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: (fake) => {
        seedBots(fake);
        fake.setFile(REPO, '.github/claims.yml', ON);
      },
    });
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    fake.assign(REPO, n, ['Copilot'], { actor: 'mia' });
    await harness.settle();
    // Copilot's pull request: its `pull_request.opened` delivery is lost.
    fake.setWebhookTarget({ capture: true });
    const pull = fake.openPullRequest(REPO, {
      head: 'copilot/fix-it',
      files: ['src/a.ts'],
      author: 'Copilot',
      body: `Fixes #${n}`,
    });
    fake.setWebhookTarget({ url: harness.webhookUrl, secret: WEBHOOK_SECRET });
    const key = {
      installationId: harness.installationId,
      owner: 'acme',
      repo: 'widgets',
      number: n,
    };
    const { store, queue } = harness.app.warden;
    const reconcile = async () => {
      await queue.enqueue({ key, hints: [], reason: 'test' });
      await harness.settle();
    };
    const reads = () =>
      fake.requests
        .filter((r) => r.method === 'GET' && r.path === `/repos/${REPO}/pulls/${pull}`)
        .map((r) => r.status);

    await reconcile();
    const answer = await callApi(harness.appUrl, 'GET', `/repos/${REPO}/issues/${n}/claim`, {
      token: fake.tokenFor('alice'),
    });
    expect(answer.body.claim).toMatchObject({
      kind: 'hosted',
      author: 'Copilot',
      branch: 'copilot/fix-it',
      stage: 'implementing',
    });
    expect(reads()).toEqual([200]);
    // The index keeps the branch: the next reconcile reads the pull request no more.
    await reconcile();
    expect(reads()).toEqual([200]);
    // With the index forgotten, the next reconcile reads it again: answered 304.
    await store.setIssueClaim(key, null);
    await reconcile();
    expect((await store.issueClaim(key))?.branch).toBe('copilot/fix-it');
    expect(reads()).toEqual([200, 304]);
  });
});
