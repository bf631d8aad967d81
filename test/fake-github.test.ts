import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify } from '@octokit/webhooks-methods';
import { createNodeMiddleware, Probot, ProbotOctokit } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, signWebhook, startFakeGitHub } from './fake-github/fake-github.js';
import { findOperation } from './fake-github/openapi.js';
import type { Route } from './fake-github/router.js';

const REPO = 'acme/widgets';
// Any three dot-separated parts pass as the app's JWT.
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOjF9.c2lnbmF0dXJl';

let fake: FakeGitHub;
let adminToken: string;

beforeEach(async () => {
  fake = await startFakeGitHub();
  fake.addInstallation({ id: 7, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'MEMBER' });
  fake.addUser('mallory');
  adminToken = fake.tokenFor('alice');
});

afterEach(async () => {
  await fake.close();
});

async function api(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; accept?: string } = {},
  // biome-ignore lint/suspicious/noExplicitAny: assertions reach into GitHub's JSON freely.
): Promise<{ status: number; headers: Headers; json: any; text: string }> {
  const headers: Record<string, string> = {
    accept: options.accept ?? 'application/vnd.github+json',
  };
  const token = options.token ?? adminToken;
  if (token) headers.authorization = `token ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${fake.apiUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(', ').filter(Boolean)) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    if (!match) throw new Error(`malformed Link part: ${part}`);
    out[match[2]!] = match[1]!;
  }
  return out;
}

function pageOf(url: string | undefined): string | null {
  return url ? new URL(url).searchParams.get('page') : null;
}

describe('pagination', () => {
  it('serves 250 comments as 3 pages of 100 with GitHub Link headers', async () => {
    const n = fake.createIssue(REPO);
    for (let i = 0; i < 250; i++) fake.addComment(REPO, n, { author: 'alice', body: `c${i}` });
    const path = `/repos/${REPO}/issues/${n}/comments`;

    const first = await api('GET', `${path}?per_page=100`);
    expect(first.json).toHaveLength(100);
    const firstLinks = links(first.headers.get('link'));
    expect(Object.keys(firstLinks)).toEqual(['next', 'last']);
    expect(pageOf(firstLinks.next)).toBe('2');
    expect(pageOf(firstLinks.last)).toBe('3');
    expect(new URL(firstLinks.next!).searchParams.get('per_page')).toBe('100');
    expect(firstLinks.next!.startsWith(`${fake.apiUrl}${path}?`)).toBe(true);

    const second = await fetch(firstLinks.next!, {
      headers: { authorization: `token ${adminToken}` },
    });
    const secondLinks = links(second.headers.get('link'));
    expect(Object.keys(secondLinks)).toEqual(['prev', 'next', 'last', 'first']);
    expect(await second.json()).toHaveLength(100);

    const third = await api('GET', `${path}?per_page=100&page=3`);
    expect(third.json).toHaveLength(50);
    expect(Object.keys(links(third.headers.get('link')))).toEqual(['prev', 'first']);
    expect(third.json.at(-1).body).toBe('c249');
  });

  it('defaults to 30 per page and caps per_page at 100', async () => {
    const n = fake.createIssue(REPO);
    for (let i = 0; i < 120; i++) fake.addComment(REPO, n, { author: 'alice', body: `c${i}` });
    expect((await api('GET', `/repos/${REPO}/issues/${n}/comments`)).json).toHaveLength(30);
    expect(
      (await api('GET', `/repos/${REPO}/issues/${n}/comments?per_page=500`)).json,
    ).toHaveLength(100);
  });

  it('sends no Link header when one page holds everything', async () => {
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: 'only' });
    const res = await api('GET', `/repos/${REPO}/issues/${n}/comments`);
    expect(res.headers.get('link')).toBeNull();
  });
});

describe('comments', () => {
  it('comment ids ascend across issues and repositories', async () => {
    fake.addRepo('acme/gadgets');
    const a = fake.createIssue(REPO);
    const b = fake.createIssue('acme/gadgets');
    const ids = [
      fake.addComment(REPO, a, { author: 'alice', body: '1' }).id,
      fake.addComment('acme/gadgets', b, { author: 'alice', body: '2' }).id,
      (await api('POST', `/repos/${REPO}/issues/${a}/comments`, { body: { body: '3' } })).json.id,
      fake.addComment(REPO, a, { author: 'alice', body: '4' }).id,
    ];
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
  });

  it('the server sets times, author_association and urls', async () => {
    fake.clock = () => new Date('2026-11-30T06:00:00.123Z');
    const n = fake.createIssue(REPO);
    const res = await api('POST', `/repos/${REPO}/issues/${n}/comments`, { body: { body: 'hi' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      body: 'hi',
      created_at: '2026-11-30T06:00:00Z',
      updated_at: '2026-11-30T06:00:00Z',
      author_association: 'MEMBER',
      user: { login: 'alice', type: 'User' },
      issue_url: `${fake.apiUrl}/repos/${REPO}/issues/${n}`,
      html_url: `${fake.url}/${REPO}/issues/${n}#issuecomment-${res.json.id}`,
    });
    expect(res.headers.get('location')).toBe(res.json.url);

    fake.clock = () => new Date('2026-11-30T07:00:00Z');
    const edited = await api('PATCH', `/repos/${REPO}/issues/comments/${res.json.id}`, {
      body: { body: 'hello' },
    });
    expect(edited.json.updated_at).toBe('2026-11-30T07:00:00Z');
    expect(edited.json.created_at).toBe('2026-11-30T06:00:00Z');
    expect(fake.issue(REPO, n).updated_at).toBe('2026-11-30T07:00:00Z');
  });

  it('a comment posted with an installation token is the bot with association NONE', async () => {
    const n = fake.createIssue(REPO);
    const token = fake.installationToken(7);
    const res = await api('POST', `/repos/${REPO}/issues/${n}/comments`, {
      token,
      body: { body: 'noted' },
    });
    expect(res.json.user).toMatchObject({ login: 'claim-warden[bot]', type: 'Bot' });
    expect(res.json.author_association).toBe('NONE');
    expect(res.json.performed_via_github_app).toMatchObject({ slug: 'claim-warden' });
  });

  it('since keeps comments updated at or after it, per issue and repository-wide', async () => {
    const n = fake.createIssue(REPO);
    const m = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: 'old', createdAt: '2026-11-30T01:00:00Z' });
    const edited = fake.addComment(REPO, n, {
      author: 'alice',
      body: 'old but edited',
      createdAt: '2026-11-30T01:00:00Z',
      updatedAt: '2026-11-30T05:00:00Z',
    });
    fake.addComment(REPO, m, { author: 'alice', body: 'new', createdAt: '2026-11-30T04:00:00Z' });
    const since = encodeURIComponent('2026-11-30T04:00:00Z');

    const perIssue = await api('GET', `/repos/${REPO}/issues/${n}/comments?since=${since}`);
    expect(perIssue.json.map((c: { body: string }) => c.body)).toEqual(['old but edited']);

    const repoWide = await api('GET', `/repos/${REPO}/issues/comments?since=${since}`);
    expect(repoWide.json.map((c: { body: string }) => c.body)).toEqual(['old but edited', 'new']);

    const byUpdated = await api(
      'GET',
      `/repos/${REPO}/issues/comments?since=${since}&sort=updated&direction=desc`,
    );
    expect(byUpdated.json.map((c: { id: number }) => c.id)[0]).toBe(edited.id);
  });

  it('a person cannot edit or delete someone else’s comment', async () => {
    const n = fake.createIssue(REPO);
    const comment = fake.addComment(REPO, n, { author: 'alice', body: 'mine' });
    const path = `/repos/${REPO}/issues/comments/${comment.id}`;
    const token = fake.tokenFor('mallory');
    expect((await api('PATCH', path, { token, body: { body: 'x' } })).status).toBe(403);
    expect((await api('DELETE', path, { token })).status).toBe(403);
    expect((await api('DELETE', path)).status).toBe(204);
    expect((await api('GET', path)).status).toBe(404);
    expect(fake.issue(REPO, n).comments).toBe(0);
  });
});

describe('issues, labels and assignees', () => {
  it('marks a pull request with the pull_request key', async () => {
    const issue = fake.createIssue(REPO);
    const pull = fake.createIssue(REPO, { isPullRequest: true });
    expect((await api('GET', `/repos/${REPO}/issues/${issue}`)).json).not.toHaveProperty(
      'pull_request',
    );
    expect((await api('GET', `/repos/${REPO}/issues/${pull}`)).json.pull_request).toMatchObject({
      url: `${fake.apiUrl}/repos/${REPO}/pulls/${pull}`,
    });
  });

  it('closing sets state_reason; reopening sets reopened', async () => {
    const n = fake.createIssue(REPO);
    const closed = await api('PATCH', `/repos/${REPO}/issues/${n}`, {
      body: { state: 'closed', state_reason: 'not_planned' },
    });
    expect(closed.json).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
    expect(closed.json.closed_by.login).toBe('alice');
    await api('PATCH', `/repos/${REPO}/issues/${n}`, { body: { state: 'open' } });
    expect(fake.issue(REPO, n)).toMatchObject({ state: 'open', state_reason: 'reopened' });
  });

  it('adding a missing label creates it on the repository with color ededed', async () => {
    const n = fake.createIssue(REPO);
    const res = await api('POST', `/repos/${REPO}/issues/${n}/labels`, {
      body: { labels: ['status:in-progress'] },
    });
    expect(res.status).toBe(200);
    expect(res.json.map((l: { name: string }) => l.name)).toEqual(['status:in-progress']);
    expect(fake.labels(REPO)).toMatchObject([{ name: 'status:in-progress', color: 'ededed' }]);
    const label = await api(
      'GET',
      `/repos/${REPO}/labels/${encodeURIComponent('status:in-progress')}`,
    );
    expect(label.json).toMatchObject({
      name: 'status:in-progress',
      color: 'ededed',
      default: false,
    });
    expect(fake.issue(REPO, n).labels).toEqual(['status:in-progress']);
  });

  it('a missing repository label is 404 and a duplicate one is 422 already_exists', async () => {
    expect((await api('GET', `/repos/${REPO}/labels/nope`)).status).toBe(404);
    const body = { name: 'status:blocked', color: 'd73a4a', description: 'Blocked' };
    expect((await api('POST', `/repos/${REPO}/labels`, { body })).status).toBe(201);
    const dup = await api('POST', `/repos/${REPO}/labels`, { body: { name: 'STATUS:blocked' } });
    expect(dup.status).toBe(422);
    expect(dup.json.errors).toEqual([{ resource: 'Label', code: 'already_exists', field: 'name' }]);
  });

  it('removing a label the issue lacks is 404 Label does not exist', async () => {
    const n = fake.createIssue(REPO, { labels: ['a'] });
    const missing = await api('DELETE', `/repos/${REPO}/issues/${n}/labels/b`);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('Label does not exist');
    const removed = await api('DELETE', `/repos/${REPO}/issues/${n}/labels/a`);
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual([]);
    expect(fake.issue(REPO, n).labels).toEqual([]);
  });

  it('assigns and unassigns, dropping accounts GitHub cannot assign', async () => {
    fake.addUser('agent[bot]', { type: 'Bot' });
    const n = fake.createIssue(REPO);
    const added = await api('POST', `/repos/${REPO}/issues/${n}/assignees`, {
      body: { assignees: ['alice', 'agent[bot]', 'mallory'] },
    });
    expect(added.status).toBe(201);
    expect(added.json.assignees.map((a: { login: string }) => a.login)).toEqual(['alice']);
    expect(added.json.assignee.login).toBe('alice');

    // A commenter becomes assignable, as on GitHub.
    fake.addComment(REPO, n, { author: 'mallory', body: 'I can help' });
    await api('POST', `/repos/${REPO}/issues/${n}/assignees`, { body: { assignees: ['mallory'] } });
    expect(fake.issue(REPO, n).assignees).toEqual(['alice', 'mallory']);

    const removed = await api('DELETE', `/repos/${REPO}/issues/${n}/assignees`, {
      body: { assignees: ['alice', 'nobody'] },
    });
    expect(removed.status).toBe(200);
    expect(removed.json.assignees.map((a: { login: string }) => a.login)).toEqual(['mallory']);
  });

  it('a deleted issue is 410 and a transferred one redirects to its new home', async () => {
    fake.addRepo('acme/gadgets');
    const gone = fake.createIssue(REPO);
    fake.deleteIssue(REPO, gone);
    expect((await api('GET', `/repos/${REPO}/issues/${gone}`)).status).toBe(410);

    const moved = fake.createIssue(REPO, { title: 'Move me' });
    const comment = fake.addComment(REPO, moved, { author: 'alice', body: 'travels' });
    const number = fake.transferIssue(REPO, moved, 'acme/gadgets');
    // fetch follows the 301, as octokit does.
    const res = await api('GET', `/repos/${REPO}/issues/${moved}`);
    expect(res.json).toMatchObject({
      number,
      title: 'Move me',
      repository_url: `${fake.apiUrl}/repos/acme/gadgets`,
    });
    const thread = await api('GET', `/repos/acme/gadgets/issues/${number}/comments`);
    expect(thread.json.map((c: { id: number }) => c.id)).toEqual([comment.id]);
  });

  it('serves files as base64 JSON or raw text', async () => {
    fake.setFile(REPO, '.github/claims.yml', 'staleAfter: 2h\n');
    const path = `/repos/${REPO}/contents/${encodeURIComponent('.github/claims.yml')}`;
    const json = await api('GET', path);
    expect(json.json).toMatchObject({
      type: 'file',
      encoding: 'base64',
      path: '.github/claims.yml',
    });
    expect(Buffer.from(json.json.content, 'base64').toString()).toBe('staleAfter: 2h\n');
    const raw = await api('GET', path, { accept: 'application/vnd.github.v3.raw' });
    expect(raw.text).toBe('staleAfter: 2h\n');
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await api('GET', `/repos/${REPO}/contents/missing.yml`)).status).toBe(404);
  });
});

describe('identity', () => {
  it('GET /user answers the owner of a personal token', async () => {
    const res = await api('GET', '/user', { token: fake.tokenFor('mallory') });
    expect(res.json).toMatchObject({ login: 'mallory', type: 'User' });
  });

  it('rejects an unknown token with 401 Bad credentials', async () => {
    const res = await api('GET', '/user', { token: 'ghp_nope' });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('Bad credentials');
  });

  it('the app JWT mints installation tokens that see their repositories', async () => {
    const app = await api('GET', '/app', { token: JWT });
    expect(app.json).toMatchObject({ id: 1, slug: 'claim-warden' });
    const minted = await api('POST', '/app/installations/7/access_tokens', { token: JWT });
    expect(minted.status).toBe(201);
    expect(minted.json.token).toMatch(/^ghs_7_\d+$/);
    const repos = await api('GET', '/installation/repositories', { token: minted.json.token });
    expect(repos.json.total_count).toBe(1);
    expect(repos.json.repositories[0].full_name).toBe(REPO);
    expect((await api('GET', `/repos/${REPO}/installation`, { token: JWT })).json.id).toBe(7);
    // GitHub refuses /user to installation tokens and app routes to anything but the JWT.
    expect((await api('GET', '/user', { token: minted.json.token })).status).toBe(403);
    expect((await api('GET', '/app', { token: minted.json.token })).status).toBe(401);
  });

  it('an installation token cannot write to a repository outside its installation', async () => {
    fake.addRepo('other/thing');
    const n = fake.createIssue('other/thing');
    const token = fake.installationToken(7);
    const res = await api('POST', `/repos/other/thing/issues/${n}/comments`, {
      token,
      body: { body: 'x' },
    });
    expect(res.status).toBe(403);
  });
});

describe('revoking a user token', () => {
  const revoke = (
    body: unknown,
    secret = fake.oauth.client.clientSecret,
    id = fake.oauth.client.clientId,
  ) =>
    fetch(`${fake.apiUrl}/applications/${fake.oauth.client.clientId}/token`, {
      method: 'DELETE',
      headers: {
        authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });

  it('takes the app’s client id and secret, revokes the token once, then knows it no more', async () => {
    const token = fake.userAccessToken('alice');
    expect((await revoke({ access_token: token }, 'wrong')).status).toBe(401);
    expect((await revoke({ access_token: token }, undefined, 'Iv1.other')).status).toBe(401);
    expect((await api('GET', '/user', { token })).status).toBe(200);
    expect((await revoke({ access_token: token })).status).toBe(204);
    expect((await api('GET', '/user', { token })).status).toBe(401);
    expect((await revoke({ access_token: token })).status).toBe(404);
    expect(fake.oauth.revocations).toEqual([{ login: 'alice', token }]);
    fake.assertValid();
  });

  it('refuses a body without access_token as GitHub’s REST description does', async () => {
    expect((await revoke({ token: 'x' })).status).toBe(422);
    expect(fake.invalidRequests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /applications/${fake.oauth.client.clientId}/token`,
    ]);
    fake.invalidRequests.length = 0;
  });
});

describe('request log and failure injection', () => {
  it('records requests with actor, status and body; unknown paths are 404', async () => {
    const n = fake.createIssue(REPO);
    await api('POST', `/repos/${REPO}/issues/${n}/labels`, { body: { labels: ['x'] } });
    const unknown = await api('GET', '/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe('Not Found');
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/nope', status: 404 });
    expect(fake.writes()).toMatchObject([
      {
        method: 'POST',
        path: `/repos/${REPO}/issues/${n}/labels`,
        body: { labels: ['x'] },
        status: 200,
        actor: 'alice',
      },
    ]);
    expect(fake.count('POST', /\/labels$/)).toBe(1);
    fake.clearRequests();
    expect(fake.requests).toEqual([]);
  });

  it('fails a request once with 502, then handles the next normally', async () => {
    const n = fake.createIssue(REPO);
    const injection = fake.inject({
      method: 'GET',
      path: `/repos/${REPO}/issues/${n}`,
      status: 502,
    });
    expect((await api('GET', `/repos/${REPO}/issues/${n}`)).status).toBe(502);
    expect((await api('GET', `/repos/${REPO}/issues/${n}`)).status).toBe(200);
    expect(injection.hits).toBe(1);
  });

  it('delays a request and then handles it', async () => {
    const n = fake.createIssue(REPO);
    fake.inject({ path: /\/issues\/\d+$/, delayMs: 150 });
    const started = Date.now();
    const res = await api('GET', `/repos/${REPO}/issues/${n}`);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('injects rate-limit answers with their headers', async () => {
    fake.inject({ path: '/user', status: 403, headers: { 'retry-after': '1' }, times: Infinity });
    const res = await api('GET', '/user');
    expect(res.status).toBe(403);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.json.message).toMatch(/secondary rate limit/);
    expect((await api('GET', '/user')).status).toBe(403);
    fake.clearInjections();
    expect((await api('GET', '/user')).status).toBe(200);
  });
});

describe('GitHub’s REST description', () => {
  it.each([
    {
      request: 'an unknown route',
      method: 'GET',
      path: '/repos/acme/widgets/claims',
      body: undefined,
      status: 404,
      problem: 'no route GET /repos/acme/widgets/claims',
    },
    {
      request: 'a path parameter of the wrong type',
      method: 'GET',
      path: '/repos/acme/widgets/issues/first',
      body: undefined,
      status: 422,
      problem: 'path parameter "issue_number" must be an integer, got "first"',
    },
    {
      request: 'a query parameter outside its enum',
      method: 'GET',
      path: '/repos/acme/widgets/issues?state=done',
      body: undefined,
      status: 422,
      problem: 'query parameter "state" must be one of "open", "closed", "all", got "done"',
    },
    {
      request: 'a body without a required property',
      method: 'POST',
      path: '/repos/acme/widgets/labels',
      body: { color: 'ededed' },
      status: 422,
      problem: 'body.name wasn’t supplied',
    },
    {
      request: 'a body value of the wrong type',
      method: 'POST',
      path: '/repos/acme/widgets/issues/1/comments',
      body: { body: 42 },
      status: 422,
      problem: 'body.body must be a string, got number 42',
    },
    {
      request: 'a body value outside its enum',
      method: 'PATCH',
      path: '/repos/acme/widgets/issues/1',
      body: { state: 'closed', state_reason: 'done' },
      status: 422,
      problem:
        'body.state_reason must be one of "completed", "not_planned", "duplicate", "reopened", got "done"',
    },
    {
      request: 'an empty list where GitHub wants one item at least',
      method: 'POST',
      path: '/repos/acme/widgets/issues/1/labels',
      body: { labels: [] },
      status: 422,
      problem: 'body.labels must have at least 1 items',
    },
    {
      request: 'a bare array where GitHub wants an object',
      method: 'POST',
      path: '/repos/acme/widgets/issues/1/labels',
      body: ['bug'],
      status: 422,
      problem: 'body must be an object, got an array',
    },
  ])(
    'refuses $request, records it, and changes nothing',
    async ({ method, path, body, status, problem }) => {
      const n = fake.createIssue(REPO);
      const answer = await api(method, path.replace('/1', `/${n}`), { body });
      expect(answer.status).toBe(status);
      expect(fake.invalidRequests).toMatchObject([{ method, status, problems: [problem] }]);
      expect(fake.issue(REPO, n)).toMatchObject({ labels: [], comments: 0, state: 'open' });
      expect(() => fake.assertValid()).toThrow(problem);
    },
  );

  it('serves only routes GitHub has, with the method GitHub gives them', () => {
    const served = (fake as unknown as { routes: readonly Route[] }).routes;
    const sample = (pattern: string) =>
      pattern
        .split('/')
        .map((segment) => {
          if (segment.startsWith('*')) return 'docs/a.md';
          if (segment === ':number' || segment === ':id') return '1';
          return segment.startsWith(':') ? 'x' : segment;
        })
        .join('/');
    const missing = served
      .filter((route) => findOperation(route.method, sample(route.pattern)) === undefined)
      .map((route) => `${route.method} ${route.pattern}`);
    expect(served.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('accepts what the app and the client send, and records nothing', async () => {
    const n = fake.createIssue(REPO);
    const token = fake.installationToken(7);
    await api('GET', `/repos/${REPO}/issues/${n}`, { token });
    await api('GET', `/repos/${REPO}/issues/${n}/comments?per_page=100`, { token });
    await api(
      'GET',
      `/repos/${REPO}/issues/comments?since=2030-01-01T00:00:00Z&sort=updated&direction=asc&per_page=100`,
      { token },
    );
    await api('POST', `/repos/${REPO}/labels`, {
      token,
      body: { name: 'status:in-progress', color: '1d76db', description: 'Held' },
    });
    await api('POST', `/repos/${REPO}/issues/${n}/labels`, {
      token,
      body: { labels: ['status:in-progress'] },
    });
    await api('DELETE', `/repos/${REPO}/issues/${n}/labels/status%3Ain-progress`, { token });
    await api('POST', `/repos/${REPO}/issues/${n}/assignees`, { body: { assignees: ['alice'] } });
    await api('DELETE', `/repos/${REPO}/issues/${n}/assignees`, {
      body: { assignees: ['alice'] },
    });
    fake.setFile(REPO, '.github/claims.yml', 'staleAfter: 2h\n');
    await api('GET', `/repos/${REPO}/contents/.github/claims.yml`, { token });
    expect(fake.invalidRequests).toEqual([]);
    expect(() => fake.assertValid()).not.toThrow();
  });
});

describe('webhooks', () => {
  const secret = 'webhook-secret';
  let receiver: Server;
  let received: { headers: IncomingHttpHeaders; body: string }[];

  beforeEach(async () => {
    received = [];
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    fake.setWebhookTarget({ url: `http://127.0.0.1:${port}/`, secret });
  });

  afterEach(async () => {
    await fake.settled();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('delivers a signed issue_comment.created shaped like GitHub’s', async () => {
    const n = fake.createIssue(REPO, { author: 'alice' });
    const comment = fake.addComment(REPO, n, { author: 'alice', body: 'claim' });
    await fake.settled();
    const delivery = received.at(-1)!;
    expect(delivery.headers['x-github-event']).toBe('issue_comment');
    expect(delivery.headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery.headers['content-type']).toBe('application/json');
    const signature = String(delivery.headers['x-hub-signature-256']);
    expect(signature).toBe(signWebhook(secret, delivery.body));
    expect(await verify(secret, delivery.body, signature)).toBe(true);
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({
      action: 'created',
      issue: { number: n, state: 'open', comments: 1, user: { login: 'alice' } },
      comment: { id: comment.id, body: 'claim', author_association: 'MEMBER' },
      repository: { name: 'widgets', full_name: REPO, owner: { login: 'acme' } },
      sender: { login: 'alice', type: 'User' },
      installation: { id: 7 },
    });
  });

  it('delivers API changes in order, with label, changes and the acting sender', async () => {
    const n = fake.createIssue(REPO);
    await fake.settled();
    received = [];
    const token = fake.installationToken(7);
    const posted = await api('POST', `/repos/${REPO}/issues/${n}/comments`, {
      token,
      body: { body: 'v1' },
    });
    await api('PATCH', `/repos/${REPO}/issues/comments/${posted.json.id}`, {
      token,
      body: { body: 'v2' },
    });
    await api('POST', `/repos/${REPO}/issues/${n}/labels`, {
      token,
      body: { labels: ['status:blocked'] },
    });
    fake.removeLabel(REPO, n, 'status:blocked', { actor: 'alice' });
    fake.closeIssue(REPO, n, { actor: 'alice' });
    await fake.settled();
    const events = received.map((r) => {
      const p = JSON.parse(r.body);
      return `${r.headers['x-github-event']}.${p.action} by ${p.sender.login}`;
    });
    expect(events).toEqual([
      'issue_comment.created by claim-warden[bot]',
      'issue_comment.edited by claim-warden[bot]',
      'issues.labeled by claim-warden[bot]',
      'issues.unlabeled by alice',
      'issues.closed by alice',
    ]);
    const payloads = received.map((r) => JSON.parse(r.body));
    expect(payloads[1].changes).toEqual({ body: { from: 'v1' } });
    expect(payloads[2].label).toMatchObject({ name: 'status:blocked', color: 'ededed' });
    expect(payloads[4].issue).toMatchObject({ state: 'closed', state_reason: 'completed' });
  });

  it('holds deliveries while paused and captures instead of sending on request', async () => {
    const n = fake.createIssue(REPO);
    await fake.settled();
    const before = received.length;
    fake.pauseWebhooks();
    fake.addComment(REPO, n, { author: 'alice', body: 'held' });
    await fake.settled();
    expect(received.length).toBe(before);
    expect(fake.deliveries.at(-1)!.state).toBe('held');
    fake.resumeWebhooks();
    await fake.settled();
    expect(received.length).toBe(before + 1);
    expect(fake.deliveries.at(-1)!.state).toBe('sent');

    fake.setWebhookTarget({ capture: true });
    fake.addComment(REPO, n, { author: 'alice', body: 'captured' });
    await fake.settled();
    expect(received.length).toBe(before + 1);
    expect(fake.deliveries.at(-1)).toMatchObject({ event: 'issue_comment', state: 'captured' });
  });
});

describe('octokit compatibility', () => {
  it('ProbotOctokit paginates listComments by following the Link headers', async () => {
    const n = fake.createIssue(REPO);
    for (let i = 0; i < 250; i++) fake.addComment(REPO, n, { author: 'alice', body: `c${i}` });
    const octokit = new ProbotOctokit({
      baseUrl: fake.apiUrl,
      auth: { token: fake.installationToken(7) },
    });
    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
      owner: 'acme',
      repo: 'widgets',
      issue_number: n,
      per_page: 100,
    });
    expect(comments).toHaveLength(250);
    expect(comments.map((c) => c.body)).toEqual(Array.from({ length: 250 }, (_, i) => `c${i}`));
    expect(fake.count('GET', `/repos/${REPO}/issues/${n}/comments`)).toBe(3);
  });

  it('a real Probot app authenticates, reads config with org fallback and gets webhooks', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const secret = 'probot-secret';
    const probot = new Probot({
      appId: 1,
      privateKey,
      secret,
      baseUrl: fake.apiUrl,
      logLevel: 'fatal',
    });
    fake.addRepo('acme/.github');
    fake.setFile('acme/.github', '.github/claims.yml', 'staleAfter: 3h\n');
    const configs: unknown[] = [];
    const middleware = await createNodeMiddleware(
      (app) => {
        app.on('issue_comment.created', async (context) => {
          if (context.isBot) return;
          configs.push(await context.config('claims.yml'));
          await context.octokit.rest.issues.addLabels(context.issue({ labels: ['seen'] }));
        });
      },
      { probot },
    );
    const server = createServer((req, res) => void middleware(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      fake.setWebhookTarget({ url: `http://127.0.0.1:${port}/api/github/webhooks`, secret });
      const n = fake.createIssue(REPO);
      fake.addComment(REPO, n, { author: 'alice', body: 'hello' });
      await fake.settled();
      expect(fake.deliveries.map((d) => d.state)).toEqual(['sent', 'sent', 'sent']);
      expect(configs).toEqual([{ staleAfter: '3h' }]);
      expect(fake.issue(REPO, n).labels).toEqual(['seen']);
      expect(fake.writes().map((w) => `${w.method} ${w.path} ${w.actor}`)).toEqual([
        'POST /app/installations/7/access_tokens app-jwt',
        `POST /repos/${REPO}/issues/${n}/labels claim-warden[bot]`,
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
