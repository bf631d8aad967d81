/**
 * Faults that must never drop work (issue 10): the real app, started through `npm start`'s code
 * path, on the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { REPO, startHarness } from '../helpers/app-harness.js';
import { claimComment, harnessFor, IN_PROGRESS } from './e2e-helpers.js';

describe.concurrent('an issue GitHub answers 404', () => {
  it('one 404 then an answer keeps the claim labelled and assigned', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const issuePath = `/repos/${REPO}/issues/${n}`;
    const notFound = fake.inject({ method: 'GET', path: issuePath, status: 404 });
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();

    expect(notFound.hits).toBe(1);
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
    // Still indexed: the sweep will look at it when the claim goes stale.
    expect(await harness.app.warden.store.countDeadlines()).toBe(1);
  });

  it('two 404s in a row drop the issue: nothing written, nothing indexed', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const issuePath = `/repos/${REPO}/issues/${n}`;
    const notFound = fake.inject({ method: 'GET', path: issuePath, status: 404, times: 2 });
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();

    expect(notFound.hits).toBe(2);
    expect(fake.count('GET', issuePath)).toBe(2);
    expect(fake.issue(REPO, n).labels).toEqual([]);
    expect(fake.issue(REPO, n).assignees).toEqual([]);
    expect(await harness.app.warden.store.countDeadlines()).toBe(0);
  });
});

describe.concurrent('a claimant who stops being a collaborator', () => {
  it('is unassigned once another session holds the issue', async ({ onTestFinished }) => {
    const harness = await harnessFor(onTestFinished);
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-alice') });
    await harness.settle();
    expect(fake.issue(REPO, n).assignees).toEqual(['alice']);

    // Her marker no longer counts (docs/protocol.md §2), but the app assigned her itself.
    fake.addUser('alice', { association: 'NONE' });
    fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-bob') });
    await harness.settle();

    expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
  });

  it('an assignee a person added stays, and a forged marker writes nothing', async ({
    onTestFinished,
  }) => {
    // Part two: with people's claims on, maria's assignment would hold against alice (§16).
    const harness = await harnessFor(onTestFinished, {
      seed: (f) => f.setFile(REPO, '.github/claims.yml', 'people:\n  enabled: false\n'),
    });
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    fake.assign(REPO, n, ['maria']);
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-alice') });
    await harness.settle();
    fake.clearRequests();

    fake.addComment(REPO, n, { author: 'mallory', body: claimComment('s-forged') });
    await harness.settle();

    expect(fake.writes().filter((r) => !r.path.startsWith('/app/'))).toEqual([]);
    expect(fake.issue(REPO, n).assignees).toEqual(['maria', 'alice']);
  });
});

describe('the end-to-end harness', () => {
  it('fails a test in which the fake saw a request GitHub would refuse', async () => {
    const harness = await startHarness();
    const n = harness.fake.createIssue(REPO);
    const answer = await fetch(`${harness.fake.apiUrl}/repos/${REPO}/issues/${n}/labels`, {
      method: 'POST',
      headers: {
        authorization: `token ${harness.fake.installationToken(harness.installationId)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ labels: [] }),
    });
    expect(answer.status).toBe(422);
    await expect(harness.close()).rejects.toThrow(
      `POST /repos/${REPO}/issues/${n}/labels -> 422: body.labels must have at least 1 items`,
    );
  });
});
