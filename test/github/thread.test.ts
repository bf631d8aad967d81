/**
 * readThread with a cache (docs/api-budget.md): a re-read of an unchanged thread with the same
 * token is answered 304 and gives what the 200 gave; any change is read anew. On the fake
 * GitHub, whose ETags hash the token with the body as GitHub's do.
 */
import { ProbotOctokit } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installationReads, type ReadCache } from '../../src/github/conditional.js';
import { UnverifiableError } from '../../src/github/errors.js';
import { MAX_THREAD_COMMENTS, readThread } from '../../src/github/thread.js';
import type { IssueKey } from '../../src/keys.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/fake-github.js';

const REPO = 'acme/widgets';
/**
 * The fake's clock stands still, so an edited comment leaves its issue's `updated_at` alone:
 * the issue answers 304 and only the comments tell the change.
 */
const CLOCK = new Date('2025-03-01T12:00:00Z');

let fake: FakeGitHub;
let store: MemoryStore;
let cache: ReadCache;
beforeEach(async () => {
  fake = await startFakeGitHub({ log: () => undefined, clock: () => CLOCK });
  fake.addInstallation({ id: 1, account: 'acme', repos: [REPO] });
  fake.addInstallation({ id: 2, account: 'globex', repos: ['globex/tools'] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  fake.addUser('bob', { association: 'COLLABORATOR' });
  store = new MemoryStore();
  cache = installationReads(store, 1);
});
afterEach(async () => {
  await fake.close();
  fake.assertValid();
});

/** An octokit with a new token of the installation, and the `If-None-Match` it sends. */
function installationOctokit(installationId: number) {
  const octokit = new ProbotOctokit({
    auth: { token: fake.installationToken(installationId) },
    baseUrl: fake.apiUrl,
    retry: { enabled: false },
    throttle: { enabled: false },
  });
  const sent: Array<string | null> = [];
  octokit.hook.before('request', (options) => {
    const tag = options.headers['if-none-match'];
    sent.push(typeof tag === 'string' ? tag : null);
  });
  return { octokit, sent };
}

/** The thread's reads since the last clear: `status page` (page 0 is the issue itself). */
function reads(): string[] {
  return fake.requests.map((r) =>
    r.path.endsWith('/comments')
      ? `${r.status} comments p${r.query.page ?? 1}`
      : `${r.status} issue`,
  );
}

function issueWith(comments: number): IssueKey {
  const number = fake.createIssue(REPO);
  for (let i = 0; i < comments; i++) {
    fake.addComment(REPO, number, { author: i % 2 ? 'bob' : 'alice', body: `comment ${i}` });
  }
  return { installationId: 1, owner: 'acme', repo: 'widgets', number };
}

describe('readThread with a cache', () => {
  it('a re-read of an unchanged thread is answered 304 twice and gives what the 200 gave', async () => {
    const key = issueWith(3);
    fake.addLabels(REPO, key.number, ['bug']);
    fake.assign(REPO, key.number, ['alice']);
    const { octokit } = installationOctokit(1);
    const first = await readThread(octokit, key, cache);
    fake.clearRequests();

    const second = await readThread(octokit, key, cache);

    expect(reads()).toEqual(['304 issue', '304 comments p1']);
    expect(second).toEqual(first);
    expect(second.comments.map((c) => c.body)).toEqual(['comment 0', 'comment 1', 'comment 2']);
    expect(second.comments[0]!.createdAt).toBeInstanceOf(Date);
  });

  it.each([
    ['a label added', (key: IssueKey) => fake.addLabels(REPO, key.number, ['status:blocked'])],
    ['an assignee added', (key: IssueKey) => fake.assign(REPO, key.number, ['bob'])],
    ['the issue closed', (key: IssueKey) => fake.closeIssue(REPO, key.number)],
  ])('%s is read anew (200), not taken from the kept copy', async (_change, change) => {
    const key = issueWith(1);
    const { octokit } = installationOctokit(1);
    const before = await readThread(octokit, key, cache);
    change(key);
    fake.clearRequests();

    const after = await readThread(octokit, key, cache);

    expect(reads()[0]).toBe('200 issue');
    const snapshot = fake.issue(REPO, key.number);
    expect(after).toMatchObject({
      open: snapshot.state === 'open',
      labels: snapshot.labels,
      assignees: snapshot.assignees,
    });
    expect(after).not.toEqual(before);
  });

  it('an edited comment is read anew (200), not taken from the kept copy', async () => {
    const key = issueWith(2);
    const { octokit } = installationOctokit(1);
    await readThread(octokit, key, cache);
    const [, second] = fake.comments(REPO, key.number);
    fake.editComment(second!.id, 'edited');
    fake.clearRequests();

    const after = await readThread(octokit, key, cache);

    expect(reads()).toEqual(['304 issue', '200 comments p1']);
    expect(after.comments.map((c) => c.body)).toEqual(['comment 0', 'edited']);
  });

  it('a page answered 304 keeps its items while a changed next page is read anew', async () => {
    const key = issueWith(150);
    const { octokit } = installationOctokit(1);
    await readThread(octokit, key, cache);
    const comments = fake.comments(REPO, key.number);
    fake.editComment(comments[120]!.id, 'edited on page two');
    fake.clearRequests();

    const after = await readThread(octokit, key, cache);

    expect(reads()).toEqual(['304 issue', '304 comments p1', '200 comments p2']);
    expect(after.comments).toHaveLength(150);
    expect(after.comments.map((c) => c.id)).toEqual(comments.map((c) => c.id));
    expect(after.comments[120]!.body).toBe('edited on page two');
    expect(after.comments[99]!.body).toBe('comment 99');
  });

  it('a comment added behind a full last page is found although that page answers 304', async () => {
    const key = issueWith(100);
    const { octokit } = installationOctokit(1);
    await readThread(octokit, key, cache);
    fake.addComment(REPO, key.number, { author: 'bob', body: 'the 101st' });
    fake.clearRequests();

    const after = await readThread(octokit, key, cache);

    // Page one's body did not change, so it answers 304 with "no next page" kept; the issue
    // counts 101 comments, so the thread is listed again in full.
    expect(reads()).toEqual(['200 issue', '304 comments p1', '200 comments p1', '200 comments p2']);
    expect(after.comments).toHaveLength(101);
    expect(after.comments.at(-1)!.body).toBe('the 101st');

    fake.clearRequests();
    expect((await readThread(octokit, key, cache)).comments).toHaveLength(101);
    expect(reads()).toEqual(['304 issue', '304 comments p1', '304 comments p2']);
  });

  it('another installation never sends the ETag nor gets the copy kept for the first', async () => {
    const key = issueWith(1);
    const first = installationOctokit(1);
    await readThread(first.octokit, key, cache);
    // An installation's token reads public repositories of other accounts too.
    const other = installationOctokit(2);
    const otherCache = installationReads(store, 2);
    fake.editComment(fake.comments(REPO, key.number)[0]!.id, 'edited');
    fake.clearRequests();

    const seen = await readThread(other.octokit, key, otherCache);

    expect(other.sent).toEqual([null, null]);
    expect(reads()).toEqual(['200 issue', '200 comments p1']);
    expect(seen.comments.map((c) => c.body)).toEqual(['edited']);
    // Its own reads are then conditional under its own scope.
    await readThread(other.octokit, key, otherCache);
    expect(other.sent.slice(2).every((tag) => tag !== null)).toBe(true);
    expect(reads().slice(2)).toEqual(['304 issue', '304 comments p1']);
  });

  it('a new token of the same installation is answered 200: its ETags are the old token’s', async () => {
    const key = issueWith(1);
    const before = await readThread(installationOctokit(1).octokit, key, cache);
    const rotated = installationOctokit(1);
    fake.clearRequests();

    const after = await readThread(rotated.octokit, key, cache);

    expect(rotated.sent.every((tag) => tag !== null)).toBe(true);
    expect(reads()).toEqual(['200 issue', '200 comments p1']);
    expect(after).toEqual(before);
    fake.clearRequests();
    await readThread(rotated.octokit, key, cache);
    expect(reads()).toEqual(['304 issue', '304 comments p1']);
  });

  it('a thread over the size limit still fails, kept issue or not, without listing it', async () => {
    const key = issueWith(MAX_THREAD_COMMENTS + 1);
    const { octokit } = installationOctokit(1);
    fake.clearRequests();
    await expect(readThread(octokit, key, cache)).rejects.toThrow(UnverifiableError);
    await expect(readThread(octokit, key, cache)).rejects.toThrow(
      `the thread has ${MAX_THREAD_COMMENTS + 1} comments`,
    );
    expect(reads()).toEqual(['200 issue', '304 issue']);
  });

  it('without a cache every read is a plain one', async () => {
    const key = issueWith(1);
    const { octokit, sent } = installationOctokit(1);
    await readThread(octokit, key);
    await readThread(octokit, key);
    expect(sent).toEqual([null, null, null, null]);
    expect(reads()).toEqual(['200 issue', '200 comments p1', '200 issue', '200 comments p1']);
  });
});
