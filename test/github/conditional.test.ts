/**
 * A frugal resync (docs/api-budget.md): repeated reads are conditional, and GitHub answers
 * what did not change with 304, which costs no rate limit. The real app on the fake GitHub.
 */
import { describe, expect, it } from 'vitest';
import { nextLink } from '../../src/github/conditional.js';
import { claimComment, harnessFor, IN_PROGRESS } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';

const REPOS = [REPO, 'acme/gadgets', 'acme/gizmos'];

describe('conditional reads of the resync', () => {
  it('a resync with nothing changed is answered 304 on every read; a new claim is still found', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: (fake) => {
        for (const repo of REPOS.slice(1)) fake.addRepo(repo);
      },
    });
    const { fake } = harness;
    const lists = () =>
      fake.requests.filter(
        (r) => r.path === '/installation/repositories' || r.path.endsWith('/issues/comments'),
      );
    // The start-up resync read each list once (nothing since one stale window ago, so each
    // checkpoint stays where it read from).
    expect(lists().map((r) => r.status)).toEqual([200, 200, 200, 200]);

    fake.clearRequests();
    await harness.app.warden.resync(harness.installationId);
    expect(lists().map((r) => r.status)).toEqual([304, 304, 304, 304]);

    const n = fake.createIssue('acme/gadgets');
    fake.setWebhookTarget(undefined);
    fake.addComment('acme/gadgets', n, { author: 'alice', body: claimComment('s-1') });
    fake.clearRequests();
    await harness.app.warden.resync(harness.installationId);
    await harness.settle();
    // The repository list shows each repository's open issue count: it changed too.
    expect(lists().map((r) => `${r.status} ${r.path}`)).toEqual([
      '200 /installation/repositories',
      '304 /repos/acme/widgets/issues/comments',
      '200 /repos/acme/gadgets/issues/comments',
      '304 /repos/acme/gizmos/issues/comments',
    ]);
    expect(fake.issue('acme/gadgets', n)).toMatchObject({ labels: [IN_PROGRESS] });
  });
});

describe('the next page of a Link header', () => {
  it.each([
    [undefined, null],
    ['<https://x/a?page=1>; rel="prev"', null],
    ['<https://x/a?page=1>; rel="prev", <https://x/a?page=3>; rel="next"', 'https://x/a?page=3'],
    ['<https://x/d?per_page=100&cursor=v1_9>; rel="next"', 'https://x/d?per_page=100&cursor=v1_9'],
  ])('%s', (link, next) => {
    expect(nextLink(link)).toBe(next);
  });
});
