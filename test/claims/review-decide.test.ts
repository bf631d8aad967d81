import { describe, expect, it } from 'vitest';
import type { BranchWork } from '../../src/claims/branch-work.js';
import { decide } from '../../src/claims/decide.js';
import type { Action } from '../../src/claims/plan.js';
import { notedReview, reviewReads } from '../../src/claims/review.js';
import type { ThreadComment } from '../../src/claims/types.js';
import { APP_LOGIN, claim, DEFAULT_CONFIG, facts, HOUR, NOW } from '../helpers/thread-builder.js';
import { kinds } from './plan-state.js';

const IN_PROGRESS = 'status:in-progress';
const REVIEW = 'status:needs-review';
const WORK: BranchWork = {
  branch: 'feat/1',
  aheadBy: 3,
  head: '1a2b3c4d'.padEnd(40, '0'),
  pull: null,
};

function note(actions: readonly Action[]): string {
  const found = actions.find((a) => a.kind === 'post-note');
  if (found?.kind !== 'post-note') throw new Error('no note');
  return found.body;
}

/** The app's review note as a later read of the thread shows it. */
function noteComment(id: number, body: string): ThreadComment {
  return { id, author: APP_LOGIN, authorAssociation: 'NONE', body, createdAt: NOW, updatedAt: NOW };
}

describe('decide: stale work with commits goes to review (docs/protocol.md §17)', () => {
  const stale = claim({ id: 1, by: 'alice', updatedAgoMs: 7 * HOUR });

  it('asks the edge for the branch of each stale claim of an open issue only', () => {
    const open = facts({ comments: [stale, claim({ id: 2, by: 'bob' })] });
    expect(reviewReads(open, DEFAULT_CONFIG, NOW)).toEqual([{ commentId: 1, branch: 'feat/1' }]);
    expect(reviewReads({ ...open, open: false }, DEFAULT_CONFIG, NOW)).toEqual([]);
  });

  const GRACE = { ...DEFAULT_CONFIG, graceMs: 2 * HOUR };
  it.each([
    ['a claim in its grace: it still holds, nothing to decide', [stale], GRACE, []],
    [
      'a claim past its grace',
      [claim({ id: 1, by: 'alice', updatedAgoMs: 9 * HOUR })],
      GRACE,
      [{ commentId: 1, branch: 'feat/1' }],
    ],
    [
      'a second stale claim after the one in grace: finalised now',
      [stale, claim({ id: 2, by: 'bob', updatedAgoMs: 7 * HOUR })],
      GRACE,
      [{ commentId: 2, branch: 'feat/2' }],
    ],
    [
      'a stale claim after a live one gets no grace',
      [claim({ id: 2, by: 'bob' }), claim({ id: 3, by: 'alice', updatedAgoMs: 7 * HOUR })],
      GRACE,
      [{ commentId: 3, branch: 'feat/3' }],
    ],
  ] as const)('reads a branch only when it decides something: %s', (_, comments, config, reads) => {
    expect(reviewReads(facts({ comments: [...comments] }), config, NOW)).toEqual(reads);
  });

  it('reads no branch for a released claim edited back to a live stage (finalised as it was)', () => {
    const reverted = facts({
      comments: [stale],
      hints: [{ kind: 'release-reverted', commentId: 1, outcome: 'landed', at: NOW.toISOString() }],
    });
    expect(reviewReads(reverted, DEFAULT_CONFIG, NOW)).toEqual([]);
  });

  it('finalises the stale claim, labels the issue for review and says whose work it is', () => {
    const plan = decide(
      facts({
        comments: [stale],
        labels: [IN_PROGRESS],
        assignees: ['alice'],
        review: new Map([[1, WORK]]),
      }),
      { ...DEFAULT_CONFIG, notify: ['maint'] },
      NOW,
    );
    expect(kinds(plan.actions)).toEqual([
      'note for 1',
      'finalise 1 abandoned (stale)',
      `remove-label ${IN_PROGRESS}`,
      `add-label ${REVIEW}`,
      'unassign alice',
    ]);
    const body = note(plan.actions);
    expect(body).toContain(
      "@alice's session left 3 commits on feat/1 (1a2b3c4); review them before this is taken over.",
    );
    expect(body).toContain('cc @maint');
    const finalise = plan.actions.find((a) => a.kind === 'finalise');
    expect(finalise).toMatchObject({ review: WORK });
    expect(plan.holder).toBeNull();
  });

  it('names the open pull request, and notes even with notifyOnExpiry off', () => {
    const plan = decide(
      facts({ comments: [stale], review: new Map([[1, { ...WORK, aheadBy: 0, pull: 7 }]]) }),
      { ...DEFAULT_CONFIG, notifyOnExpiry: false },
      NOW,
    );
    expect(note(plan.actions)).toContain('left 0 commits on feat/1 (1a2b3c4) and pull request #7');
  });

  it('sends the issue back to the queue when the branch has no work', () => {
    const plan = decide(
      facts({ comments: [stale], labels: [IN_PROGRESS], review: new Map([[1, null]]) }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual([
      'note for 1',
      'finalise 1 abandoned (stale)',
      `remove-label ${IN_PROGRESS}`,
    ]);
  });

  it('refuses a takeover by another author in the same decision', () => {
    const plan = decide(
      facts({
        comments: [stale, claim({ id: 2, by: 'bob' })],
        labels: [IN_PROGRESS],
        review: new Map([[1, WORK]]),
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toContain('finalise 2 abandoned (needs-review)');
    expect(kinds(plan.actions)).toContain(`add-label ${REVIEW}`);
    expect(plan.holder).toBeNull();
  });

  it('lets the owner come back: its new claim holds and no label is added', () => {
    const plan = decide(
      facts({
        comments: [stale, claim({ id: 2, by: 'alice', session: 'again' })],
        labels: [IN_PROGRESS],
        review: new Map([[1, WORK]]),
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.holder).toMatchObject({ commentId: 2 });
    expect(kinds(plan.actions)).not.toContain(`add-label ${REVIEW}`);
  });

  it('changes nothing about review on a closed issue', () => {
    const plan = decide(
      facts({ comments: [stale], open: false, review: new Map([[1, WORK]]) }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions).filter((k) => k.includes(REVIEW))).toEqual([]);
  });
});

describe('decide: never dragged back (docs/protocol.md §17)', () => {
  const stale = claim({ id: 1, by: 'alice', updatedAgoMs: 7 * HOUR });
  const first = decide(
    facts({ comments: [stale], review: new Map([[1, WORK]]) }),
    DEFAULT_CONFIG,
    NOW,
  );
  const recorded = noteComment(5, note(first.actions));

  it('reads back whose work it is from the app’s own note', () => {
    expect(notedReview(facts({ comments: [recorded] }))).toEqual({ author: 'alice', work: WORK });
    // A note by anyone else is not the app's record.
    expect(notedReview(facts({ comments: [{ ...recorded, author: 'mallory' }] }))).toBeNull();
  });

  it('refuses a new claim on a labelled issue, with the reason', () => {
    const plan = decide(
      facts({ comments: [recorded, claim({ id: 6, by: 'bob' })], labels: [REVIEW] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual(['finalise 6 abandoned (needs-review)']);
    const finalise = plan.actions[0];
    expect(finalise?.kind === 'finalise' && finalise.body).toContain(
      "this issue needs review (@alice's stale session left work here)",
    );
  });

  it('admits the owner’s return and takes the label off', () => {
    const plan = decide(
      facts({ comments: [recorded, claim({ id: 6, by: 'Alice' })], labels: [REVIEW] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.holder).toMatchObject({ commentId: 6 });
    expect(kinds(plan.actions)).toEqual([
      `add-label ${IN_PROGRESS}`,
      `remove-label ${REVIEW}`,
      'assign Alice',
    ]);
  });

  it('a label added by hand refuses every new claim, and keeps a live holder', () => {
    const newcomer = decide(
      facts({ comments: [claim({ id: 6, by: 'alice' })], labels: [REVIEW] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(newcomer.actions)).toEqual(['finalise 6 abandoned (needs-review)']);
    const holding = decide(
      facts({
        comments: [claim({ id: 6, by: 'alice' }), claim({ id: 7, by: 'bob' })],
        labels: [REVIEW, IN_PROGRESS],
        assignees: ['alice'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(holding.holder).toMatchObject({ commentId: 6 });
    expect(kinds(holding.actions)).toEqual(['finalise 7 abandoned (needs-review)']);
  });

  it('a label removed by hand hands the issue back: claims hold as before', () => {
    const plan = decide(
      facts({ comments: [recorded, claim({ id: 6, by: 'bob' })] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.holder).toMatchObject({ commentId: 6 });
  });
});
