import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';

const REPO = 'acme/widgets';

let fake: FakeGitHub;
let token: string;
let at: Date;

beforeEach(async () => {
  at = new Date('2026-11-20T09:00:00Z');
  fake = await startFakeGitHub({ clock: () => at });
  fake.addInstallation({ id: 7, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'MEMBER' });
  fake.addUser('bob', { association: 'COLLABORATOR' });
  token = fake.installationToken(7);
});

afterEach(async () => {
  fake.assertValid();
  await fake.close();
});

async function api(
  method: string,
  path: string,
  options: { body?: unknown; etag?: string } = {},
  // biome-ignore lint/suspicious/noExplicitAny: assertions reach into GitHub's JSON freely.
): Promise<{ status: number; headers: Headers; json: any }> {
  const headers: Record<string, string> = {
    accept: 'application/vnd.github+json',
    authorization: `token ${token}`,
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.etag) headers['if-none-match'] = options.etag;
  const response = await fetch(`${fake.apiUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : {} };
}

describe('the timeline', () => {
  it('records assignments with their actor, comments, labels and mentioning pull requests', async () => {
    const n = fake.createIssue(REPO);
    fake.assign(REPO, n, ['bob'], { actor: 'alice' });
    at = new Date('2026-11-20T10:00:00Z');
    await api('POST', `/repos/${REPO}/issues/${n}/assignees`, { body: { assignees: ['alice'] } });
    fake.addComment(REPO, n, { author: 'bob', body: 'on it' });
    fake.unassign(REPO, n, ['alice'], { actor: 'bob' });
    const pull = fake.openPullRequest(REPO, {
      head: `fix-${n}`,
      files: ['a.ts'],
      author: 'bob',
      body: `Fixes #${n}`,
    });

    const { status, json } = await api('GET', `/repos/${REPO}/issues/${n}/timeline`);
    expect(status).toBe(200);
    expect(json.map((e: { event: string }) => e.event)).toEqual([
      'assigned',
      'assigned',
      'commented',
      'unassigned',
      'cross-referenced',
    ]);
    expect(json[0]).toMatchObject({
      actor: { login: 'alice' },
      assignee: { login: 'bob' },
      created_at: '2026-11-20T09:00:00Z',
    });
    // The app's own writes name its bot as the actor.
    expect(json[1]).toMatchObject({
      actor: { login: fake.botLogin },
      assignee: { login: 'alice' },
    });
    expect(json[2]).toMatchObject({ user: { login: 'bob' }, body: 'on it' });
    expect(json[4].source.issue).toMatchObject({
      number: pull,
      user: { login: 'bob' },
      state: 'open',
      pull_request: expect.any(Object),
    });
  });

  it('pages with a Link header and answers 304 to its ETag', async () => {
    const n = fake.createIssue(REPO);
    for (let i = 0; i < 3; i++) fake.addComment(REPO, n, { author: 'bob', body: `c${i}` });
    const first = await api('GET', `/repos/${REPO}/issues/${n}/timeline?per_page=2`);
    expect(first.json).toHaveLength(2);
    expect(first.headers.get('link')).toContain('rel="next"');
    const again = await api('GET', `/repos/${REPO}/issues/${n}/timeline?per_page=2`, {
      etag: first.headers.get('etag') ?? '',
    });
    expect(again.status).toBe(304);
  });
});

describe('reactions', () => {
  it('adds a reaction once and shows it in the comment rollup', async () => {
    const n = fake.createIssue(REPO);
    const comment = fake.addComment(REPO, n, { author: 'bob', body: '/claim' });
    const path = `/repos/${REPO}/issues/comments/${comment.id}/reactions`;
    const made = await api('POST', path, { body: { content: '+1' } });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ content: '+1', user: { login: fake.botLogin } });
    expect((await api('POST', path, { body: { content: '+1' } })).status).toBe(200);

    const listed = await api('GET', `${path}?content=%2B1`);
    expect(listed.json).toHaveLength(1);
    expect(fake.comment(comment.id)?.reactions).toMatchObject({ total_count: 1, '+1': 1 });
  });

  it('refuses a reaction GitHub does not know', async () => {
    const n = fake.createIssue(REPO);
    const comment = fake.addComment(REPO, n, { author: 'bob', body: 'x' });
    const path = `/repos/${REPO}/issues/comments/${comment.id}/reactions`;
    expect((await api('POST', path, { body: { content: 'thumbsup' } })).status).toBe(422);
    fake.invalidRequests.length = 0;
  });
});

describe('organisation members and roles', () => {
  it('answers 204 for a member and 404 for anyone else', async () => {
    fake.addUser('carol');
    fake.addOrgMember('acme', 'carol');
    expect((await api('GET', '/orgs/acme/members/carol')).status).toBe(204);
    expect((await api('GET', '/orgs/acme/members/alice')).status).toBe(204);
    expect((await api('GET', '/orgs/acme/members/bob')).status).toBe(404);
  });

  it('reports role_name as setRole says', async () => {
    fake.setRole(REPO, 'bob', 'triage');
    const { json } = await api('GET', `/repos/${REPO}/collaborators/bob/permission`);
    expect(json).toMatchObject({ role_name: 'triage', permission: 'read' });
  });
});
