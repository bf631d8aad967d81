import { describe, expect, it } from 'vitest';
import { planStatus } from '../../src/claims/plan-status.js';
import { claim, HOUR, NOW } from '../helpers/thread-builder.js';
import { CLAIMANT, claimState, kinds, writtenMarker } from './plan-state.js';

const IN_PROGRESS = 'status:in-progress';
const BLOCKED = 'status:blocked';
const MINE = claim({ id: 1, session: 'mine', stage: 'implementing' });

describe('planStatus: recording a stage on the session’s own claim', () => {
  it.each([
    ['blocked adds the blocked label', 'blocked', [IN_PROGRESS], [`add-label ${BLOCKED}`]],
    ['another stage removes it', 'review', [IN_PROGRESS, BLOCKED], [`remove-label ${BLOCKED}`]],
    ['a missing in-progress label is put back', 'review', [], [`add-label ${IN_PROGRESS}`]],
  ] as const)('%s', (_name, stage, labels, actions) => {
    const plan = planStatus(
      claimState({ comments: [MINE], labels }),
      { session: 'mine', stage },
      CLAIMANT,
      NOW,
    );
    if (plan.kind !== 'update') throw new Error(`expected an update, got ${plan.kind}`);
    expect(plan.comment.commentId).toBe(1);
    expect(writtenMarker(plan.comment)).toMatchObject({ stage, updated: NOW });
    expect(kinds(plan.actions)).toEqual(actions);
  });

  it('keeps a note given with the stage, and drops the previous one without', () => {
    const state = claimState({ comments: [MINE], labels: [IN_PROGRESS] });
    const noted = planStatus(
      state,
      { session: 'mine', stage: 'review', note: 'round one' },
      CLAIMANT,
      NOW,
    );
    expect(noted.kind === 'update' && noted.comment.body).toContain('- Note: round one');
  });

  it.each([
    [
      'no stage and the session holds it: a report, nothing written',
      [MINE],
      undefined,
      'report',
      [],
    ],
    [
      'no stage and another holds it: not holding, nothing written',
      [claim({ id: 1 }), claim({ id: 2, session: 'mine' })],
      undefined,
      'not-holding',
      [],
    ],
    [
      'a stage while another holds it: the own live loser is finalised',
      [claim({ id: 1 }), claim({ id: 2, session: 'mine' })],
      'review',
      'lost',
      ['finalise 2 abandoned (lost)'],
    ],
    [
      'a stage on a stale own claim: not holding',
      [claim({ id: 1, session: 'mine', updatedAgoMs: 7 * HOUR })],
      'review',
      'not-holding',
      [],
    ],
  ] as const)('%s', (_name, comments, stage, kind, actions) => {
    const plan = planStatus(claimState({ comments }), { session: 'mine', stage }, CLAIMANT, NOW);
    expect(plan.kind).toBe(kind);
    expect(kinds('actions' in plan ? plan.actions : [])).toEqual(actions);
  });
});
