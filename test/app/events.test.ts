import { describe, expect, it, vi } from 'vitest';
import { claim, remark } from '../helpers/thread-builder.js';
import {
  APP_SLUG,
  CONFIG_PATH,
  calls,
  commentCreated,
  commentEdited,
  commentsPath,
  createInProgress,
  expectConfig,
  expectToken,
  expectWrites,
  finalised,
  gate,
  HOUR,
  IN_PROGRESS,
  INSTALLATION,
  installationCreated,
  installationDeleted,
  installationReposAdded,
  issueDeleted,
  issueLabeled,
  issuePath,
  issuePayload,
  issueTransferred,
  labelLookup,
  MINUTE,
  mock,
  mockIssue,
  mockNoBranchWork,
  mockThread,
  NOW,
  OWNER,
  PEOPLE_OFF,
  REPO,
  reads,
  restComment,
  useTestApp,
  write,
  writes,
} from './harness.js';

const app = useTestApp();

describe('docs/protocol.md §2: who may claim', () => {
  it.each(['NONE', 'CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR'])(
    'a marker from a non-collaborator (%s) is ignored: no API call at all',
    async (association) => {
      const mallory = claim({ id: 11, by: 'mallory', association });

      await app().receive(commentCreated({ comment: mallory }));
      await app().settle();

      expect(calls).toEqual([]);
    },
  );

  it('a forged marker in the thread neither holds the issue nor is finalised', async () => {
    const mallory = claim({ id: 11, by: 'mallory', association: 'NONE' });
    const alice = claim({ id: 12, by: 'alice' });
    mockThread({ comments: [mallory, alice], labels: [IN_PROGRESS] });
    const expected = expectWrites(write.assign(1, 'alice'));

    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('a bot listed in trustedBots of .github/claims.yml may claim (labelled, never assigned)', async () => {
    const agent = claim({ id: 11, by: 'my-agent[bot]', association: 'NONE' });
    mockThread({ comments: [agent], config: 'trustedBots:\n  - my-agent[bot]\n' });
    labelLookup(IN_PROGRESS, true);
    const expected = expectWrites(write.addLabel(1, IN_PROGRESS));

    await app().receive(commentCreated({ comment: agent }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('a bot not listed in trustedBots is not a claim: the cached config is read, nothing else', async () => {
    const agent = claim({ id: 11, by: 'other-agent[bot]', association: 'NONE' });
    expectToken();
    expectConfig('trustedBots: ["my-agent[bot]"]\n');

    await app().receive(commentCreated({ comment: agent }));
    await app().settle();

    expect(writes()).toEqual([]);
  });

  it('org-wide settings from the org’s .github repository apply when the repository has none', async () => {
    expectToken();
    mock('GET', `/repos/o/r${CONFIG_PATH}`, [404, { message: 'Not Found' }]);
    mock('GET', `/repos/o/.github${CONFIG_PATH}`, [
      200,
      'enforceLabels: false\n',
      { 'content-type': 'application/vnd.github.raw; charset=utf-8' },
    ]);
    mockThread({ comments: [], labels: [IN_PROGRESS], token: false, config: 'cached' });

    await app().receive(issueLabeled({ label: IN_PROGRESS, issue: { labels: [IN_PROGRESS] } }));
    await app().settle();

    expect(writes()).toEqual([]);
  });

  it('a marker in a pull request’s conversation is nothing: no API call', async () => {
    const alice = claim({ id: 11, by: 'alice' });

    await app().receive(commentCreated({ comment: alice, issue: { issue: 3, pullRequest: true } }));
    await app().settle();

    expect(calls).toEqual([]);
  });
});

describe('docs/protocol.md §5: events', () => {
  it('the app’s own echo makes no API call', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    const body = finalised(alice, 'abandoned', 'stale since 2026-11-30T11:00:00Z');

    await app().receive(
      commentEdited({ comment: { ...alice, body }, from: alice.body, sender: `${APP_SLUG}[bot]` }),
    );
    await app().receive(issueLabeled({ label: IN_PROGRESS, sender: `${APP_SLUG}[bot]` }));
    await app().settle();

    expect(calls).toEqual([]);
  });

  it('a delivery id seen before is acknowledged and does nothing', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ comments: [alice], labels: [IN_PROGRESS] });
    const expected = expectWrites(write.assign(1, 'alice'));

    await app().receive(commentCreated({ comment: alice }), 'b7e1c2a0-0000-4000-8000-000000000001');
    await app().settle();
    await app().receive(commentCreated({ comment: alice }), 'b7e1c2a0-0000-4000-8000-000000000001');
    await app().settle();

    expect(reads(issuePath(1))).toBe(1);
    expect(writes()).toEqual(expected);
  });

  it('a heartbeat of the holder makes no API call: the sweep verifies it at the deadline', async () => {
    const alice = claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: HOUR });
    mockThread({ comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    const beat = claim({ id: 11, by: 'alice', session: 'sess-alice', postedAgoMs: HOUR });
    await app().receive(
      commentEdited({
        comment: { ...beat, body: beat.body.replace('claimed', 'implementing') },
        from: alice.body,
      }),
    );
    await app().settle();

    expect(reads(issuePath(1))).toBe(1);
    expect(writes()).toEqual([]);
  });

  it('a heartbeat more than a window ahead of the clock is reconciled at once: stale by the skew cap', async () => {
    const alice = claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: HOUR });
    mockThread({ comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    // A clock 7 hours fast writes the heartbeat: past the 6-hour window, so stale now.
    const ahead = claim({
      id: 11,
      by: 'alice',
      session: 'sess-alice',
      updatedAgoMs: -7 * HOUR,
      editedAgoMs: 0,
      postedAgoMs: HOUR,
    });
    mockThread({
      comments: [ahead],
      labels: [IN_PROGRESS],
      assignees: ['alice'],
      token: false,
      config: 'cached',
    });
    mockNoBranchWork('feat/11');
    const expected = expectWrites(
      write.note(1, expect.stringContaining('@alice') as unknown as string),
      write.finalise(11, finalised(ahead, 'abandoned', 'stale since 2026-11-30T12:00:00Z')),
      write.removeLabel(1, IN_PROGRESS),
      write.unassign(1, 'alice'),
    );
    await app().receive(commentEdited({ comment: ahead, from: alice.body }));
    await app().settle();

    expect(reads(issuePath(1))).toBe(2);
    expect(writes()).toEqual(expected);
  });

  it('the same edit of a claim that does not hold the issue is reconciled, and it loses', async () => {
    const alice = claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: HOUR });
    const bob = claim({
      id: 12,
      by: 'bob',
      session: 'sess-bob',
      updatedAgoMs: HOUR,
      assignee: 'before',
    });
    mockThread({ comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    // Bob's claim was posted while its delivery was lost; its first edit is what the app sees.
    const beat = claim({
      id: 12,
      by: 'bob',
      session: 'sess-bob',
      postedAgoMs: HOUR,
      assignee: 'before',
    });
    mockThread({
      comments: [alice, beat],
      labels: [IN_PROGRESS],
      assignees: ['alice'],
      token: false,
      config: 'cached',
    });
    const expected = expectWrites(
      write.finalise(
        12,
        finalised(beat, 'abandoned', 'lost to the older claim in comment 11 (session sess-alice)'),
      ),
    );
    await app().receive(commentEdited({ comment: beat, from: bob.body }));
    await app().settle();

    expect(reads(issuePath(1))).toBe(2);
    expect(writes()).toEqual(expected);
  });

  it('a comment without a marker makes no API call', async () => {
    await app().receive(commentCreated({ comment: remark(11, 'LGTM, ship it', 'alice') }));
    await app().receive(
      commentEdited({
        comment: remark(12, 'Looks good now', 'bob'),
        from: 'Looks good',
      }),
    );
    await app().settle();

    expect(calls).toEqual([]);
  });

  it('a label event for a non-status label costs at most the cached config read', async () => {
    expectToken();
    expectConfig('absent');

    await app().receive(issueLabeled({ label: 'bug' }));
    await app().receive(issueLabeled({ label: 'good first issue' }));
    await app().settle();

    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `POST /app/installations/${INSTALLATION}/access_tokens`,
      'GET /repos/o/r/contents/.github%2Fclaims.yml',
      'GET /repos/o/.github/contents/.github%2Fclaims.yml',
    ]);
  });

  it('a burst of five events on one issue coalesces into fewer reconciles, ending right', async () => {
    const comments = [
      claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: MINUTE }),
      claim({ id: 12, by: 'bob' }),
      claim({ id: 13, by: 'carol' }),
      claim({ id: 14, by: 'dave' }),
      claim({ id: 15, by: 'erin' }),
    ];
    // GitHub as the writes leave it: each read reflects every write made before it.
    const patched = () =>
      new Map(
        writes()
          .filter((c) => c.method === 'PATCH')
          .map((c) => [Number(c.path.split('/').pop()), (c.body as { body: string }).body]),
      );
    const labelled = () => writes().some((c) => c.path.endsWith('/issues/1/labels'));
    const assigned = () => writes().some((c) => c.path.endsWith('/issues/1/assignees'));
    expectToken();
    expectConfig('absent');
    mock(
      'GET',
      issuePath(1),
      () => [
        200,
        issuePayload({
          comments,
          labels: labelled() ? [IN_PROGRESS] : [],
          assignees: assigned() ? ['alice'] : [],
        }),
      ],
      { persist: true },
    );
    mock(
      'GET',
      commentsPath(1),
      () => [
        200,
        comments.map((c) => {
          const body = patched().get(c.id);
          return restComment(body ? { ...c, body, updatedAt: NOW } : c);
        }),
      ],
      { persist: true },
    );
    labelLookup(IN_PROGRESS, false);
    const lost = 'lost to the older claim in comment 11 (session sess-alice)';
    const expected = expectWrites(
      ...comments.slice(1).map((c) => write.finalise(c.id, finalised(c, 'abandoned', lost))),
      createInProgress,
      write.addLabel(1, IN_PROGRESS),
      write.assign(1, 'alice'),
    );

    await Promise.all(comments.map((comment) => app().receive(commentCreated({ comment }))));
    await app().settle();

    expect(reads(issuePath(1))).toBeGreaterThanOrEqual(1);
    expect(reads(issuePath(1))).toBeLessThan(5);
    expect(writes()).toEqual(expected);
  });

  it('an event that arrives while its issue is being reconciled causes exactly one more reconcile', async () => {
    const alice = claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: MINUTE });
    const bob = claim({ id: 12, by: 'bob' });
    const held = gate();
    const reading = gate();
    // The first reconcile reads the thread before bob's claim exists, and is held there.
    expectToken();
    expectConfig('absent');
    mockIssue({ comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    mock('GET', commentsPath(1), async () => {
      reading.open();
      await held.opened;
      return [200, [restComment(alice)]];
    });
    // The second reconcile sees bob's claim.
    mockThread({
      comments: [alice, bob],
      labels: [IN_PROGRESS],
      assignees: ['alice'],
      token: false,
      config: 'cached',
    });
    const lost = 'lost to the older claim in comment 11 (session sess-alice)';
    const expected = expectWrites(write.finalise(12, finalised(bob, 'abandoned', lost)));

    await app().receive(commentCreated({ comment: alice }));
    await reading.opened;
    await app().receive(commentCreated({ comment: bob }));
    held.open();
    await app().settle();

    expect(reads(issuePath(1))).toBe(2);
    expect(writes()).toEqual(expected);
  });

  it('a write the issue’s current state already satisfies is not sent', async () => {
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: HOUR });
    // Part two: with people's claims on, carol's assignment costs a timeline read (§16).
    mockThread({
      comments: [alice],
      labels: [IN_PROGRESS],
      assignees: ['alice', 'carol'],
      config: PEOPLE_OFF,
    });

    await app().receive(commentEdited({ comment: alice, from: claim({ id: 11 }).body }));
    await app().settle();

    expect(reads(issuePath(1))).toBe(1);
    expect(writes()).toEqual([]);
  });

  it('issues.deleted makes no API call and drops the issue from the sweep index', async () => {
    const key = { installationId: INSTALLATION, owner: OWNER, repo: REPO, number: 1 };
    await app().store.setDeadline(key, new Date(NOW.getTime() + HOUR));

    await app().receive(issueDeleted({}));
    await app().settle();

    expect(calls).toEqual([]);
    expect(await app().store.countDeadlines()).toBe(0);
  });

  it('issues.transferred reconciles the issue where it lives now', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ issue: 8, comments: [alice], labels: [IN_PROGRESS] });
    const expected = expectWrites(write.assign(8, 'alice'));

    const old = { installationId: INSTALLATION, owner: OWNER, repo: 'old-home', number: 5 };
    await app().store.setDeadline(old, new Date(NOW.getTime() + HOUR));
    await app().store.setHolder(old, 11);

    await app().receive(issueTransferred({ issue: { issue: 5 }, to: 8 }));
    await app().settle();

    expect(writes()).toEqual(expected);
    // Its old place is dropped from the index: the sweep will not look for it there.
    expect(await app().store.dueIssues(new Date(NOW.getTime() + 2 * HOUR), 10)).not.toContainEqual(
      old,
    );
    expect(await app().store.holderOf(old)).toBeNull();
  });
});

describe('docs/protocol.md §5: installation events resync', () => {
  /** `GET /repos/o/r/issues/comments?since=…`, as the resync asks for it. */
  function repoComments(since: Date, comments: Array<ReturnType<typeof restComment>>): void {
    const query = new URLSearchParams({
      since: since.toISOString(),
      sort: 'updated',
      direction: 'asc',
      per_page: '100',
    });
    mock('GET', `/repos/${OWNER}/${REPO}/issues/comments?${query}`, [200, comments]);
  }

  /** The resync runs detached from the webhook: wait until it checkpointed the repository. */
  async function resynced(): Promise<void> {
    await vi.waitFor(async () => {
      expect(
        await app().store.getCheckpoint({ installationId: INSTALLATION, owner: OWNER, repo: REPO }),
      ).not.toBeNull();
    });
    await app().settle();
  }

  /** Comments on issues 1 and 2 carry markers; issue 3's does not. */
  function threeIssues() {
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: HOUR });
    const bob = claim({ id: 21, by: 'bob', updatedAgoMs: 2 * HOUR });
    const chatter = remark(31, 'Is anyone on this?');
    repoComments(new Date(NOW.getTime() - 6 * HOUR), [
      restComment(bob, 2),
      restComment(alice, 1),
      restComment(chatter, 3),
    ]);
    // docs/protocol.md §12: the resync lists the open issues for the work queue's index.
    mock('GET', `/repos/${OWNER}/${REPO}/issues?state=open&per_page=100`, [200, []]);
    // The two reconciles run concurrently: their writes may interleave.
    mockThread({
      issue: 2,
      comments: [bob],
      labels: [IN_PROGRESS],
      token: false,
      config: 'cached',
    });
    mockThread({
      issue: 1,
      comments: [alice],
      labels: [IN_PROGRESS],
      token: false,
      config: 'cached',
    });
    return expectWrites(write.assign(2, 'bob'), write.assign(1, 'alice'));
  }

  it('installation.created lists the repositories, reads comments since one window ago and reconciles each issue with a marker', async () => {
    expectToken();
    mock('GET', '/installation/repositories?per_page=100', [
      200,
      {
        total_count: 1,
        repository_selection: 'selected',
        repositories: [{ id: 9000, name: REPO, full_name: `${OWNER}/${REPO}`, private: false }],
      },
    ]);
    expectConfig('absent');
    const expected = threeIssues();

    await app().receive(installationCreated());
    await resynced();

    expect(writes()).toHaveLength(expected.length);
    expect(writes()).toEqual(expect.arrayContaining(expected));
    expect(reads(issuePath(3))).toBe(0);
    // The next resync reads from a minute before this one started.
    expect(
      await app().store.getCheckpoint({ installationId: INSTALLATION, owner: OWNER, repo: REPO }),
    ).toEqual(new Date(NOW.getTime() - MINUTE));
  });

  it('installation_repositories.added resyncs just the added repositories', async () => {
    expectToken();
    expectConfig('absent');
    const expected = threeIssues();

    await app().receive(installationReposAdded([REPO]));
    await resynced();

    expect(writes()).toHaveLength(expected.length);
    expect(writes()).toEqual(expect.arrayContaining(expected));
  });

  it('installation.deleted makes no API call and drops the installation’s octokit: the next event builds a new one', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    const auth = vi.spyOn(app().probot, 'auth');
    await app().receive(commentCreated({ comment: alice }));
    await app().settle();
    const built = auth.mock.calls.length;

    await app().receive(installationDeleted());
    await app().settle();
    expect(calls.filter((c) => !c.path.includes('/repos/'))).toEqual([
      { method: 'POST', path: `/app/installations/${INSTALLATION}/access_tokens` },
    ]);
    mockThread({
      comments: [alice],
      labels: [IN_PROGRESS],
      assignees: ['alice'],
      token: false,
      config: 'cached',
    });
    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    expect(auth.mock.calls.length).toBeGreaterThan(built);
  });
});

describe('deliveries GitHub would not send', () => {
  it('a delivery whose event name is `issue_comment.created` is acknowledged and logged, not a crash', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    const event = commentCreated({ comment: alice });

    await app().receive({ name: 'issue_comment.created', payload: event.payload });
    await app().settle();

    expect(calls).toEqual([]);
    expect(app().logs).toContainEqual(
      expect.objectContaining({
        msg: 'malformed webhook payload ignored',
        problem: 'x-github-event: "issue_comment.created" is not an event name',
      }),
    );
  });
});
