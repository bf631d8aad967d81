import { describe, expect, it } from 'vitest';
import { claim, remark } from '../helpers/thread-builder.js';
import {
  API,
  CONFIG_PATH,
  calls,
  commentCreated,
  commentsPath,
  expectConfig,
  expectToken,
  expectWrites,
  finalised,
  HOUR,
  IN_PROGRESS,
  INSTALLATION,
  issuePath,
  labelLookup,
  MAX_ATTEMPTS,
  mock,
  mockComments,
  mockIssue,
  mockThread,
  NOW,
  OWNER,
  REPO,
  reads,
  restComment,
  useTestApp,
  write,
  writes,
} from './harness.js';

// docs/protocol.md §6: fail closed. Octokit's own retry (plugin-retry) re-sends a 5xx three times before a
// request fails; the harness shortens its waits to milliseconds, so "fails for good" below
// means four 5xx answers in a row.
const OCTOKIT_ATTEMPTS = 4;

const app = useTestApp();

const key = { installationId: INSTALLATION, owner: OWNER, repo: REPO, number: 1 };

const serverError = (status: number) => [status, { message: 'Server Error' }] as const;

describe('a GitHub failure while reading the thread', () => {
  it('a 502 on the comments writes nothing, is retried, and converges on the next attempt', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    expectToken();
    expectConfig('absent');
    mockIssue({ comments: [alice] }, 2);
    mock('GET', commentsPath(1), serverError(502), { times: OCTOKIT_ATTEMPTS });
    mockComments(1, [alice]);
    labelLookup(IN_PROGRESS, true);
    const expected = expectWrites(write.addLabel(1, IN_PROGRESS), write.assign(1, 'alice'));

    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual(expected);
    // Nothing was written before the thread was read whole.
    const wholeRead = calls.map((c) => c.path).lastIndexOf(commentsPath(1));
    const firstWrite = calls.indexOf(writes()[0]!);
    expect(firstWrite).toBeGreaterThan(wholeRead);
    expect(app().logs).toContainEqual(
      expect.objectContaining({
        msg: 'thread unverifiable: will retry',
        issue: `${INSTALLATION}/o/r#1`,
        status: 502,
      }),
    );
  });

  it('a thread of 3,001 comments is unverifiable: nothing written, its deadline kept', async () => {
    const deadline = new Date(NOW.getTime() + HOUR);
    await app().store.setDeadline(key, deadline);
    expectToken();
    expectConfig('absent');
    // Each attempt reads the issue, sees the count and stops: no comment is paged.
    mockIssue({ commentCount: 3001 }, MAX_ATTEMPTS);

    await app().receive(commentCreated({ comment: claim({ id: 11, by: 'alice' }) }));
    await app().settle();

    expect(writes()).toEqual([]);
    expect(reads(issuePath(1))).toBe(MAX_ATTEMPTS);
    expect(reads(commentsPath(1))).toBe(0);
    expect(await app().store.dueIssues(deadline, 10)).toEqual([key]);
    expect(app().logs).toContainEqual(
      expect.objectContaining({
        msg: 'thread unverifiable: will retry',
        err: expect.objectContaining({ message: 'the thread has 3001 comments, more than 3000' }),
      }),
    );
    // Not dropped until the next resync: due again a minute later, for the sweep.
    expect(await app().store.dueIssues(new Date(NOW.getTime() + 60_000), 10)).toEqual([key]);
    expect(app().logs).toContainEqual(
      expect.objectContaining({ msg: 'reconcile failed on every attempt; kept due for the sweep' }),
    );
  });
});

describe('a GitHub failure reading the config or the issue', () => {
  it('a 500 reading .github/claims.yml writes nothing and is retried until it can be read', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    expectToken();
    mock('GET', `/repos/o/r${CONFIG_PATH}`, serverError(500), { times: OCTOKIT_ATTEMPTS });
    // An unreadable config is not cached: the retry reads it again.
    mockThread({ comments: [alice], labels: [IN_PROGRESS], token: false });
    const expected = expectWrites(write.assign(1, 'alice'));

    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual(expected);
    expect(reads(issuePath(1))).toBe(1);
  });

  it.each([404, 410])(
    'an issue GitHub answers %i twice in a row is dropped from the sweep index; nothing is written',
    async (status) => {
      await app().store.setDeadline(key, new Date(NOW.getTime() - 1000));
      expectToken();
      expectConfig('absent');
      mock('GET', issuePath(1), [status, { message: 'Not Found' }], { times: 2 });

      await app().warden.sweep();
      await app().settle();

      expect(writes()).toEqual([]);
      expect(reads(issuePath(1))).toBe(2);
      expect(await app().store.countDeadlines()).toBe(0);
      expect(app().logs).toContainEqual(
        expect.objectContaining({ msg: 'issue is gone: dropped from the index', status }),
      );
    },
  );

  it('one 404 on an issue is not a deletion: the reconcile is retried and the claim stays held', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    await app().store.setDeadline(key, new Date(NOW.getTime() - 1000));
    expectToken();
    expectConfig('absent');
    mock('GET', issuePath(1), [404, { message: 'Not Found' }]);
    mockThread({
      comments: [alice],
      labels: [IN_PROGRESS],
      assignees: ['alice'],
      token: false,
      config: 'cached',
    });

    await app().warden.sweep();
    await app().settle();

    expect(writes()).toEqual([]);
    expect(reads(issuePath(1))).toBe(2);
    // Still indexed, at the holder's stale time.
    expect(await app().store.dueIssues(new Date(NOW.getTime() + 7 * HOUR), 10)).toEqual([key]);
    expect(app().logs).toContainEqual(
      expect.objectContaining({ msg: 'issue answered gone once: will retry', status: 404 }),
    );
    // The 404 was forgotten once the issue answered: a later one is again only a first.
    expect(await app().store.noteIssueGone(key, 60_000)).toBe(false);
  });

  it('a thread longer than one page is read whole before anything is decided', async () => {
    const alice = claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: HOUR });
    const bob = claim({ id: 150, by: 'bob' });
    const chatter = Array.from({ length: 99 }, (_, i) => remark(1000 + i, `+1 (${i})`));
    expectToken();
    expectConfig('absent');
    mockIssue({ commentCount: 101, labels: [IN_PROGRESS], assignees: ['alice'] });
    const page2 = `${API}/repos/o/r/issues/1/comments?per_page=100&page=2`;
    mock('GET', commentsPath(1), [
      200,
      [alice, ...chatter].map((c) => restComment(c)),
      { link: `<${page2}>; rel="next", <${page2}>; rel="last"` },
    ]);
    mock('GET', '/repos/o/r/issues/1/comments?per_page=100&page=2', [200, [restComment(bob)]]);
    const lost = 'lost to the older claim in comment 11 (session sess-alice)';
    const expected = expectWrites(write.finalise(150, finalised(bob, 'abandoned', lost)));

    await app().receive(commentCreated({ comment: bob }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });
});

describe('a GitHub failure on a write', () => {
  it('a single 500 is re-sent by octokit and the reconcile converges', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ comments: [alice], labels: [IN_PROGRESS] });
    const assign = write.assign(1, 'alice');
    mock('POST', assign.path, serverError(500), { body: assign.body });
    expectWrites(assign);

    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual([assign, assign]);
    expect(reads(issuePath(1))).toBe(1);
  });

  it('a write that keeps failing fails the reconcile; the retry reads fresh state and sends only what is still needed', async () => {
    const alice = claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: HOUR });
    const bob = claim({ id: 12, by: 'bob' });
    const lost = finalised(
      bob,
      'abandoned',
      'lost to the older claim in comment 11 (session sess-alice)',
    );
    // Attempt 1: bob's claim is finalised, then adding the label fails for good.
    mockThread({ comments: [alice, bob] });
    expectWrites(write.finalise(12, lost));
    labelLookup(IN_PROGRESS, true);
    const addLabel = write.addLabel(1, IN_PROGRESS);
    mock('POST', addLabel.path, serverError(500), { body: addLabel.body, times: OCTOKIT_ATTEMPTS });
    // Attempt 2 reads GitHub as attempt 1 left it: bob's claim is finalised already.
    mockThread({
      comments: [alice, { ...bob, body: lost, updatedAt: NOW }],
      token: false,
      config: 'cached',
    });
    expectWrites(addLabel, write.assign(1, 'alice'));

    await app().receive(commentCreated({ comment: bob }));
    await app().settle();

    expect(reads(issuePath(1))).toBe(2);
    expect(writes()).toEqual([
      write.finalise(12, lost),
      ...Array(OCTOKIT_ATTEMPTS).fill(addLabel),
      addLabel,
      write.assign(1, 'alice'),
    ]);
  });

  it('a 403 secondary rate limit with retry-after: 1 is retried after about a second', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ comments: [alice], labels: [IN_PROGRESS] });
    const assign = write.assign(1, 'alice');
    const sentAt: number[] = [];
    mock(
      'POST',
      assign.path,
      () => {
        sentAt.push(performance.now());
        return [
          403,
          {
            message:
              'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
            documentation_url:
              'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
          },
          { 'retry-after': '1' },
        ];
      },
      { body: assign.body },
    );
    mock(
      'POST',
      assign.path,
      () => {
        sentAt.push(performance.now());
        return [201, { number: 1, assignees: [{ login: 'alice' }] }];
      },
      { body: assign.body },
    );

    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual([assign, assign]);
    expect(sentAt).toHaveLength(2);
    const waited = sentAt[1]! - sentAt[0]!;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(3000);
    // Honoured inside the one reconcile: the thread was read once.
    expect(reads(issuePath(1))).toBe(1);
  });
});

describe('bad repository config', () => {
  it('an invalid .github/claims.yml writes nothing on the repository and the log names the field', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    expectToken();
    expectConfig('staleAfter: 5m\n');

    await app().receive(commentCreated({ comment: alice }));
    await app().settle();
    // The verdict is cached: a second claim costs nothing, and writes nothing either.
    await app().receive(commentCreated({ comment: claim({ id: 12, by: 'bob' }) }));
    await app().settle();

    expect(writes()).toEqual([]);
    expect(reads(issuePath(1))).toBe(0);
    const warnings = app().logs.filter(
      (line) => line.msg === 'repository config is invalid: nothing written',
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ issue: `${INSTALLATION}/o/r#1` });
    expect(String(warnings[0]!.error)).toMatch(/^staleAfter: .*\(got "5m"\)/);
  });
});

describe('a failed installation token request', () => {
  it.each([401, 500])(
    'a %i on the token request is counted in claims_github_requests_total and logged as a warning',
    async (status) => {
      const alice = claim({ id: 11, by: 'alice' });
      // Each attempt of the reconcile asks for a token again (plugin-retry re-sends a 500).
      mock(
        'POST',
        `/app/installations/${INSTALLATION}/access_tokens`,
        [status, { message: 'Bad credentials' }],
        {
          persist: true,
        },
      );

      await app().receive(commentCreated({ comment: alice }));
      await app().settle();

      const metrics = await app().warden.metrics.registry.metrics();
      expect(metrics).toMatch(
        new RegExp(
          `claims_github_requests_total\\{method="POST",route="/app/installations/\\{installation_id\\}/access_tokens",status="${status}"\\} [1-9]`,
        ),
      );
      expect(app().logs).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: 'installation token request failed',
          installationId: INSTALLATION,
          status,
        }),
      );
    },
  );
});
