import { describe, expect, it } from 'vitest';
import type { ThreadComment } from '../../src/claims/types.js';
import { claim } from '../helpers/thread-builder.js';
import {
  APP_SLUG,
  BLOCKED,
  calls,
  commentCreated,
  commentDeleted,
  commentEdited,
  createBlocked,
  createInProgress,
  expectWrites,
  finalised,
  HOUR,
  IN_PROGRESS,
  INSTALLATION,
  issueClosed,
  issueLabeled,
  issueUnlabeled,
  labelLookup,
  MINUTE,
  mock,
  mockComments,
  mockIssue,
  mockNoBranchWork,
  mockThread,
  NOW,
  OWNER,
  PEOPLE_OFF,
  REPO,
  useTestApp,
  write,
  writes,
} from './harness.js';

// docs/protocol.md §4: what the app makes true on every issue it reconciles, one row at a time.

const app = useTestApp();

/** The marker line of a body. */
const markerOf = (body: string) => body.split('\n')[0];

describe('a holder exists', () => {
  it('the in-progress label is created with its colour and description, added, and the holder assigned', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ comments: [alice] });
    labelLookup(IN_PROGRESS, false);
    const expected = expectWrites(
      createInProgress,
      write.addLabel(1, IN_PROGRESS),
      write.assign(1, 'alice'),
    );

    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('an in-progress label the repository has is added without being created', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ comments: [alice] });
    labelLookup(IN_PROGRESS, true);
    const expected = expectWrites(write.addLabel(1, IN_PROGRESS), write.assign(1, 'alice'));

    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('label names from .github/claims.yml are used, and created with the app’s style', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ comments: [alice], config: 'labels:\n  inProgress: claimed\nassign: false\n' });
    labelLookup('claimed', false);
    const expected = expectWrites(
      write.createLabel(
        'claimed',
        '1d76db',
        'Held by a live claim; see the claim comment (claimed)',
      ),
      write.addLabel(1, 'claimed'),
    );

    await app().receive(commentCreated({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('a blocked holder gets status:blocked as well', async () => {
    const alice = claim({ id: 11, by: 'alice', stage: 'blocked' });
    mockThread({ comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    labelLookup(BLOCKED, false);
    const expected = expectWrites(createBlocked, write.addLabel(1, BLOCKED));

    await app().receive(commentEdited({ comment: alice, from: claim({ id: 11 }).body }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('status:blocked is removed once the holder is no longer blocked', async () => {
    const alice = claim({ id: 11, by: 'alice', stage: 'implementing' });
    mockThread({ comments: [alice], labels: [IN_PROGRESS, BLOCKED], assignees: ['alice'] });
    const expected = expectWrites(write.removeLabel(1, BLOCKED));

    const before = claim({ id: 11, by: 'alice', stage: 'blocked' }).body;
    await app().receive(commentEdited({ comment: alice, from: before }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });
});

describe('a live claim that is not the holder', () => {
  it('is finalised as abandoned, naming the holder’s comment and session', async () => {
    const alice = claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: HOUR });
    const bob = claim({ id: 12, by: 'bob', session: 'sess-bob' });
    mockThread({ comments: [alice, bob], labels: [IN_PROGRESS], assignees: ['alice'] });
    const body = finalised(
      bob,
      'abandoned',
      'lost to the older claim in comment 11 (session sess-alice)',
    );
    const expected = expectWrites(write.finalise(12, body));

    await app().receive(commentCreated({ comment: bob }));
    await app().settle();

    expect(writes()).toEqual(expected);
    // The marker by hand: released, abandoned, updated now, every other key kept.
    expect(markerOf(body)).toBe(
      '<!-- praetor-claim v=1 session=sess-bob lane=lane-a branch=feat/12 started=2026-11-30T12:00:00Z updated=2026-11-30T12:00:00Z stage=released assignee=claim outcome=abandoned -->',
    );
    expect(body).toContain('- Stage: released');
  });
});

describe('a stale, unreleased claim', () => {
  it('is finalised "stale since" its deadline, with one note mentioning its author', async () => {
    const alice = claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: 7 * HOUR });
    const bob = claim({ id: 12, by: 'bob' });
    mockThread({ comments: [alice, bob], labels: [IN_PROGRESS], assignees: ['alice'] });
    mockNoBranchWork('feat/11');
    const expected = expectWrites(
      write.note(1, expect.stringContaining('@alice') as unknown as string),
      write.finalise(11, finalised(alice, 'abandoned', 'stale since 2026-11-30T11:00:00Z')),
      write.unassign(1, 'alice'),
      write.assign(1, 'bob'),
    );

    await app().receive(commentCreated({ comment: bob }));
    await app().settle();

    expect(writes()).toEqual(expected);
    const note = (writes()[0]!.body as { body: string }).body;
    expect(note.split('\n')[0]).toBe('<!-- claim-warden note=expired comment=11 -->');
    expect(note).toMatch(/^@alice .*comment 11.*sess-alice.*stale since 2026-11-30T11:00:00Z/m);
  });

  it('with notifyOnExpiry: false it is finalised without a note', async () => {
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: 7 * HOUR });
    const bob = claim({ id: 12, by: 'bob' });
    mockThread({
      comments: [alice, bob],
      labels: [IN_PROGRESS],
      assignees: ['bob'],
      config: 'notifyOnExpiry: false\n',
    });
    mockNoBranchWork('feat/11');
    const expected = expectWrites(
      write.finalise(11, finalised(alice, 'abandoned', 'stale since 2026-11-30T11:00:00Z')),
    );

    await app().receive(commentCreated({ comment: bob }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('the note is not posted twice when a retry finds it already there', async () => {
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: 7 * HOUR });
    const key = { installationId: INSTALLATION, owner: OWNER, repo: REPO, number: 1 };
    await app().store.setDeadline(key, new Date(NOW.getTime() - HOUR));
    const body = finalised(alice, 'abandoned', 'stale since 2026-11-30T11:00:00Z');

    // First attempt: the note goes out, then the finalisation fails (all of octokit's retries).
    mockThread({ comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    mockNoBranchWork('feat/11');
    expectWrites(write.note(1, expect.stringContaining('@alice') as unknown as string));
    mock('PATCH', '/repos/o/r/issues/comments/11', [500, { message: 'Server Error' }], {
      body: { body },
      times: 4,
    });
    // The retry reads the thread again: the note is in it.
    const note: ThreadComment = {
      id: 99,
      author: `${APP_SLUG}[bot]`,
      authorAssociation: 'NONE',
      body: '<!-- claim-warden note=expired comment=11 -->\n@alice the claim went stale.',
      createdAt: NOW,
      updatedAt: NOW,
    };
    mockIssue({ comments: [alice, note], labels: [IN_PROGRESS], assignees: ['alice'] });
    mockComments(1, [alice, note]);
    // The branch is read again (the default branch is kept).
    mock('GET', '/repos/o/r/compare/main...feat%2F11', [404, { message: 'Not Found' }]);
    expectWrites(
      write.finalise(11, body),
      write.removeLabel(1, IN_PROGRESS),
      write.unassign(1, 'alice'),
    );

    await app().warden.sweep();
    await app().settle();

    const notes = writes().filter((c) => c.method === 'POST' && c.path.endsWith('/comments'));
    expect(notes).toHaveLength(1);
    expect(
      writes()
        .slice(-3)
        .map((c) => `${c.method} ${c.path}`),
    ).toEqual([
      'PATCH /repos/o/r/issues/comments/11',
      'DELETE /repos/o/r/issues/1/labels/status%3Ain-progress',
      'DELETE /repos/o/r/issues/1/assignees',
    ]);
  });
});

describe('no holder', () => {
  it('both status labels go; the released claim’s assignee=claim author is unassigned, others stay', async () => {
    const live = claim({ id: 11, by: 'alice' });
    const released = claim({ id: 11, by: 'alice', stage: 'released', outcome: 'handed-over' });
    mockThread({
      comments: [released],
      labels: [IN_PROGRESS, BLOCKED],
      assignees: ['alice', 'carol'],
      // Part two: with people's claims on, carol's assignment is a claim that holds (§16).
      config: PEOPLE_OFF,
    });
    const expected = expectWrites(
      write.removeLabel(1, IN_PROGRESS),
      write.removeLabel(1, BLOCKED),
      write.unassign(1, 'alice'),
    );

    await app().receive(commentEdited({ comment: released, from: live.body }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('an author whose claim says assignee=before stays assigned', async () => {
    const live = claim({ id: 11, by: 'alice', assignee: 'before' });
    const released = claim({ id: 11, by: 'alice', stage: 'released', assignee: 'before' });
    mockThread({ comments: [released], labels: [IN_PROGRESS], assignees: ['alice'] });
    const expected = expectWrites(write.removeLabel(1, IN_PROGRESS));

    await app().receive(commentEdited({ comment: released, from: live.body }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });
});

describe('the assignees the app added', () => {
  const key = { installationId: INSTALLATION, owner: OWNER, repo: REPO, number: 1 };

  it('a claimant who stopped being a collaborator is unassigned when bob claims, as the app assigned her', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ comments: [alice], labels: [IN_PROGRESS] });
    const first = expectWrites(write.assign(1, 'alice'));
    await app().receive(commentCreated({ comment: alice }));
    await app().settle();
    expect(writes()).toEqual(first);
    expect(await app().store.appAssignees(key)).toEqual(['alice']);

    // Her marker no longer counts (docs/protocol.md §2): only the app's memory says it assigned her.
    const outsider = { ...alice, authorAssociation: 'NONE' };
    const bob = claim({ id: 12, by: 'bob' });
    mockThread({
      comments: [outsider, bob],
      labels: [IN_PROGRESS],
      assignees: ['alice'],
      token: false,
      config: 'cached',
    });
    const second = expectWrites(write.unassign(1, 'alice'), write.assign(1, 'bob'));
    await app().receive(commentCreated({ comment: bob }));
    await app().settle();

    expect(writes()).toEqual([...first, ...second]);
    expect(await app().store.appAssignees(key)).toEqual(['bob']);
  });

  it('an assignee a person added before the claim is not remembered, so it stays', async () => {
    const live = claim({ id: 11, by: 'alice', assignee: 'before' });
    mockThread({ comments: [live], labels: [IN_PROGRESS], assignees: ['alice'] });
    await app().receive(commentCreated({ comment: live }));
    await app().settle();

    expect(writes()).toEqual([]);
    expect(await app().store.appAssignees(key)).toEqual([]);
  });
});

describe('issue closed with a live claim', () => {
  it('closed as completed: the claim is finalised as landed', async () => {
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: HOUR });
    const issue = { state: 'closed', state_reason: 'completed' } as const;
    mockThread({ ...issue, comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    const expected = expectWrites(
      write.finalise(11, finalised(alice, 'landed', 'the issue was closed as completed')),
      write.removeLabel(1, IN_PROGRESS),
      write.unassign(1, 'alice'),
    );

    await app().receive(issueClosed({ issue: { ...issue, labels: [IN_PROGRESS] } }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('closed as not planned: the claim is finalised as abandoned', async () => {
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: HOUR });
    const issue = { state: 'closed', state_reason: 'not_planned' } as const;
    mockThread({ ...issue, comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    const expected = expectWrites(
      write.finalise(11, finalised(alice, 'abandoned', 'the issue was closed')),
      write.removeLabel(1, IN_PROGRESS),
      write.unassign(1, 'alice'),
    );

    await app().receive(issueClosed({ issue }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });
});

describe('the holder’s comment deleted', () => {
  it('frees the issue and unassigns the deleted claim’s author', async () => {
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: HOUR });
    // Part two: with people's claims on, carol's assignment is a claim that holds (§16).
    mockThread({
      comments: [],
      labels: [IN_PROGRESS],
      assignees: ['alice', 'carol'],
      config: PEOPLE_OFF,
    });
    const expected = expectWrites(write.removeLabel(1, IN_PROGRESS), write.unassign(1, 'alice'));

    await app().receive(commentDeleted({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('hands the issue to the next live claim', async () => {
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: HOUR });
    const bob = claim({ id: 12, by: 'bob' });
    mockThread({ comments: [bob], labels: [IN_PROGRESS], assignees: ['alice'] });
    const expected = expectWrites(write.unassign(1, 'alice'), write.assign(1, 'bob'));

    await app().receive(commentDeleted({ comment: alice }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });
});

describe('status:in-progress removed by a person while a claim is live', () => {
  it('is an administrative release: the holder is finalised as abandoned, naming who', async () => {
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: HOUR });
    mockThread({ comments: [alice], labels: [], assignees: ['alice'] });
    const expected = expectWrites(
      write.finalise(
        11,
        finalised(
          alice,
          'abandoned',
          'released by @maria, who removed the label status:in-progress',
        ),
      ),
      write.unassign(1, 'alice'),
    );

    await app().receive(issueUnlabeled({ label: IN_PROGRESS, sender: 'maria' }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });
  it('a late delivery of a removal made before the holder claimed does not release it', async () => {
    // maria removed the label at 11:00; alice claimed at 11:30; the delivery reaches the app
    // at 12:00 (GitHub delays deliveries under load, and redelivers failed ones on request).
    // The payload's issue.updated_at tells when the removal happened.
    const alice = claim({ id: 11, by: 'alice', updatedAgoMs: 30 * MINUTE });
    mockThread({ comments: [alice], labels: [], assignees: [] });
    labelLookup(IN_PROGRESS, true);
    const expected = expectWrites(write.addLabel(1, IN_PROGRESS), write.assign(1, 'alice'));

    const removedAt = new Date(NOW.getTime() - HOUR);
    await app().receive(
      issueUnlabeled({ label: IN_PROGRESS, sender: 'maria', issue: { updatedAt: removedAt } }),
    );
    await app().settle();

    expect(writes()).toEqual(expected);
  });
});

describe('a status label added by a person that does not match the claims', () => {
  it('is removed again (enforceLabels defaults to true)', async () => {
    mockThread({ comments: [], labels: [IN_PROGRESS] });
    const expected = expectWrites(write.removeLabel(1, IN_PROGRESS));

    await app().receive(issueLabeled({ label: IN_PROGRESS, issue: { labels: [IN_PROGRESS] } }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });

  it('is left alone with enforceLabels: false in .github/claims.yml', async () => {
    mockThread({ comments: [], labels: [BLOCKED], config: 'enforceLabels: false\n' });

    await app().receive(issueLabeled({ label: BLOCKED, issue: { labels: [BLOCKED] } }));
    await app().settle();

    expect(writes()).toEqual([]);
    expect(calls.map((c) => c.path)).toContain('/repos/o/r/issues/1/comments?per_page=100');
  });
});

describe('released is final', () => {
  it('a released claim edited back to a live stage is finalised again, with its outcome', async () => {
    const released = claim({ id: 11, by: 'alice', stage: 'released', outcome: 'landed' });
    const revived = claim({ id: 11, by: 'alice', stage: 'implementing' });
    mockThread({ comments: [revived] });
    const expected = expectWrites(
      write.finalise(
        11,
        finalised(
          revived,
          'landed',
          'a released claim is final; it was edited back to a live stage',
        ),
      ),
    );

    await app().receive(commentEdited({ comment: revived, from: released.body }));
    await app().settle();

    expect(writes()).toEqual(expected);
  });
});
