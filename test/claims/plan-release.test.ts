import { describe, expect, it } from 'vitest';
import { planRelease } from '../../src/claims/plan-release.js';
import { claim, HOUR, NOW } from '../helpers/thread-builder.js';
import { CLAIMANT, claimState, kinds, writtenMarker } from './plan-state.js';

const IN_PROGRESS = 'status:in-progress';
const BLOCKED = 'status:blocked';

describe('planRelease: finalising the session’s claim', () => {
  it.each([
    [
      'the holder: labels off and its assignment back, then the comment released',
      {
        comments: [claim({ id: 1, session: 'mine' })],
        labels: [IN_PROGRESS, BLOCKED],
        assignees: ['alice', 'carol'],
      },
      [`remove-label ${IN_PROGRESS}`, `remove-label ${BLOCKED}`, 'unassign alice'],
    ],
    [
      'an assignment that was there before the claim stays',
      {
        comments: [claim({ id: 1, session: 'mine', assignee: 'before' })],
        labels: [IN_PROGRESS],
        assignees: ['alice'],
      },
      [`remove-label ${IN_PROGRESS}`],
    ],
    [
      'a stale own claim while another holds: the holder keeps its labels',
      {
        comments: [
          claim({ id: 1, session: 'mine', updatedAgoMs: 7 * HOUR }),
          claim({ id: 2, by: 'bob' }),
        ],
        labels: [IN_PROGRESS],
        assignees: ['alice', 'bob'],
      },
      ['unassign alice'],
    ],
    [
      'a claim on a closed issue is released all the same',
      { comments: [claim({ id: 1, session: 'mine' })], open: false },
      [],
    ],
  ])('%s', (_name, facts, actions) => {
    const plan = planRelease(
      claimState(facts),
      { session: 'mine', outcome: 'landed' },
      CLAIMANT,
      NOW,
    );
    if (plan.kind !== 'release') throw new Error(`expected a release, got ${plan.kind}`);
    expect(kinds(plan.actions)).toEqual(actions);
    expect(plan.comment.commentId).toBe(1);
    expect(writtenMarker(plan.comment)).toMatchObject({
      stage: 'released',
      outcome: 'landed',
      updated: NOW,
    });
    expect(plan.comment.body).toContain('- Reason: released by its session');
  });

  it.each([
    [
      'released with that outcome already: done',
      [claim({ id: 1, session: 'mine', stage: 'released', outcome: 'landed' })],
      'already-released',
      [],
    ],
    [
      'finalised with another outcome: nothing to release',
      [claim({ id: 1, session: 'mine', stage: 'released', outcome: 'abandoned' })],
      'finalised',
      [],
    ],
    ['no claim of this session: not holding', [claim({ id: 1 })], 'not-holding', []],
    [
      'a live own claim that lost: finalised as abandoned',
      [claim({ id: 1 }), claim({ id: 2, session: 'mine' })],
      'lost',
      ['finalise 2 abandoned (lost)'],
    ],
  ] as const)('%s', (_name, comments, kind, actions) => {
    const plan = planRelease(
      claimState({ comments }),
      { session: 'mine', outcome: 'landed' },
      CLAIMANT,
      NOW,
    );
    expect(plan.kind).toBe(kind);
    expect(kinds('actions' in plan ? plan.actions : [])).toEqual(actions);
  });
});
