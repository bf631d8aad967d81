/**
 * The fake GitHub's pull requests and check runs behave as GitHub's do where the guard relies
 * on it (docs/protocol.md §11).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/fake-github.js';

const REPO = 'acme/widgets';
let fake: FakeGitHub;

beforeEach(async () => {
  fake = await startFakeGitHub();
  fake.addInstallation({ id: 7, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'MEMBER' });
});
afterEach(async () => {
  fake.assertValid();
  await fake.close();
});

async function api(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${fake.apiUrl}${path}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `token ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    link: response.headers.get('link'),
    json: await response.json(),
  };
}

describe('fake GitHub: pull requests and check runs', () => {
  it('lists at most 3,000 files of a pull request, 100 a page', async () => {
    const files = Array.from({ length: 3050 }, (_, i) => `f${String(i).padStart(4, '0')}`);
    const n = fake.openPullRequest(REPO, { head: 'feat/x', files });
    const token = fake.installationToken(7);
    const last = await api('GET', `/repos/${REPO}/pulls/${n}/files?per_page=100&page=30`, token);
    expect(last.json).toHaveLength(100);
    expect(last.json[99].filename).toBe('f2999');
    expect(last.link).not.toContain('rel="next"');
    const past = await api('GET', `/repos/${REPO}/pulls/${n}/files?per_page=100&page=31`, token);
    expect(past.json).toEqual([]);
  });

  it('only an app writes check runs, on a commit the repository has', async () => {
    const n = fake.openPullRequest(REPO, { head: 'feat/x', files: ['a'] });
    const sha = fake.pullRecord(REPO, n).head.sha;
    const run = { name: 'claim-warden/paths', head_sha: sha, conclusion: 'success' };
    expect(
      (await api('POST', `/repos/${REPO}/check-runs`, fake.tokenFor('alice'), run)).status,
    ).toBe(403);
    const token = fake.installationToken(7);
    const unknown = { ...run, head_sha: 'e'.repeat(40) };
    expect((await api('POST', `/repos/${REPO}/check-runs`, token, unknown)).status).toBe(422);
    const created = await api('POST', `/repos/${REPO}/check-runs`, token, run);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'completed', conclusion: 'success' });
    const listed = await api(
      'GET',
      `/repos/${REPO}/commits/${sha}/check-runs?check_name=claim-warden/paths`,
      token,
    );
    expect(listed.json).toMatchObject({ total_count: 1, check_runs: [{ id: created.json.id }] });
    const updated = await api('PATCH', `/repos/${REPO}/check-runs/${created.json.id}`, token, {
      conclusion: 'failure',
      output: { title: 't', summary: 's' },
    });
    expect(updated.json).toMatchObject({
      conclusion: 'failure',
      output: { title: 't', summary: 's' },
    });
  });
});
