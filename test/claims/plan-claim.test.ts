import { describe, expect, it } from 'vitest';
import { type ClaimPlan, planClaim } from '../../src/claims/plan-claim.js';
import { claim, HOUR, NOW } from '../helpers/thread-builder.js';
import { CLAIMANT, claimState, kinds, writtenMarker } from './plan-state.js';

const IN_PROGRESS = 'status:in-progress';
const BLOCKED = 'status:blocked';
const ALICE = { session: 'mine', lane: 'lane-a', branch: 'feat/x', login: 'alice' };

function post(plan: ClaimPlan): Extract<ClaimPlan, { kind: 'post' }> {
  if (plan.kind !== 'post') throw new Error(`expected a post plan, got ${plan.kind}`);
  return plan;
}

describe('planClaim: what claiming an issue writes', () => {
  it.each([
    [
      'a free issue: the label added and the account assigned',
      {},
      'claim',
      [`add-label ${IN_PROGRESS}`, 'assign alice'],
    ],
    [
      'an account assigned already is recorded as before',
      { assignees: ['alice'] },
      'before',
      [`add-label ${IN_PROGRESS}`],
    ],
    [
      'with assign: false the claim records no assignee',
      { assign: false },
      undefined,
      [`add-label ${IN_PROGRESS}`],
    ],
    [
      'a label already there is not added again',
      { labels: [IN_PROGRESS] },
      'claim',
      ['assign alice'],
    ],
  ])('%s', (_name, facts, assignee, writes) => {
    const plan = post(planClaim(claimState(facts), ALICE, CLAIMANT, NOW));
    const marker = writtenMarker(plan.comment);
    expect(marker).toMatchObject({ stage: 'claimed', branch: 'feat/x', updated: NOW });
    expect(marker?.assignee).toBe(assignee);
    expect(marker?.session).toMatch(/^h:[0-9a-f]{12}$/);
    expect(kinds(plan.writes(99))).toEqual(writes);
  });

  it('takes over a stale claim: names it, finalises it, and moves labels and assignment', () => {
    const stale = claim({ id: 5, by: 'bob', stage: 'blocked', updatedAgoMs: 7 * HOUR });
    const state = claimState({
      comments: [stale],
      labels: [IN_PROGRESS, BLOCKED],
      assignees: ['bob'],
    });
    const plan = post(planClaim(state, ALICE, CLAIMANT, NOW));

    expect(plan.comment.body).toContain('- Takeover: replaces claim comment 5');
    const writes = plan.writes(99);
    expect(kinds(writes)).toEqual([
      'finalise 5 abandoned (stale)',
      `remove-label ${BLOCKED}`,
      'assign alice',
      'unassign bob',
    ]);
    expect(writes[0]?.kind === 'finalise' && writes[0].body).toMatch(
      /- Reason: stale since 2026-11-30T11:00:00Z; taken over by comment 99 \(session h:/,
    );
  });

  it.each([
    ['a closed issue is not claimable', { open: false }, 'closed', []],
    [
      'another session holds it: this session’s own live loser is finalised',
      { comments: [claim({ id: 1, by: 'bob' }), claim({ id: 2, session: 'mine' })] },
      'held',
      ['finalise 2 abandoned (lost)'],
    ],
    [
      'the session holds it: nothing rewritten, labels and assignment repaired',
      { comments: [claim({ id: 1, session: 'mine', stage: 'blocked' })] },
      'resume',
      [`add-label ${BLOCKED}`, `add-label ${IN_PROGRESS}`, 'assign alice'],
    ],
    [
      'the session holds it twice: the newer duplicate is finalised',
      {
        comments: [claim({ id: 1, session: 'mine' }), claim({ id: 2, session: 'mine' })],
        labels: [IN_PROGRESS],
        assignees: ['alice'],
      },
      'resume',
      ['finalise 2 abandoned (lost)'],
    ],
  ])('%s', (_name, facts, kind, actions) => {
    const plan = planClaim(claimState(facts), ALICE, CLAIMANT, NOW);
    expect(plan.kind).toBe(kind);
    expect(kinds('actions' in plan ? plan.actions : [])).toEqual(actions);
  });

  it('a claim over the clock-skew cap does not hold: the issue is taken over', () => {
    const ahead = claim({ id: 5, by: 'bob', updatedAgoMs: -6 * HOUR - 1000, editedAgoMs: 0 });
    const plan = post(planClaim(claimState({ comments: [ahead] }), ALICE, CLAIMANT, NOW));
    expect(plan.stale.map((c) => c.comment.id)).toEqual([5]);
  });
});

describe('planClaim in a grace (docs/protocol.md §17)', () => {
  const graced = (by: string, session: string) =>
    claim({ id: 1, by, session, updatedAgoMs: 6 * HOUR + 10 * 60_000 });
  const inGrace = (by: string, session: string) => ({
    ...claimState({ comments: [graced(by, session)], labels: [IN_PROGRESS], assignees: [by] }),
    config: { ...claimState().config, graceMs: HOUR },
  });

  it('another session’s stale claim in its grace refuses the claim: nothing is written', () => {
    const plan = planClaim(inGrace('bob', 'theirs'), ALICE, CLAIMANT, NOW);
    expect(plan).toMatchObject({ kind: 'in-grace', hold: { claim: { comment: { id: 1 } } } });
  });

  it('the session’s own claim in grace is taken over and handed over, not abandoned', () => {
    const plan = post(planClaim(inGrace('alice', 'mine'), ALICE, CLAIMANT, NOW));
    const [handed] = plan.writes(9).filter((a) => a.kind === 'finalise');
    expect(handed).toMatchObject({ commentId: 1, outcome: 'handed-over', reason: 'reclaimed' });
    expect(handed?.kind === 'finalise' && handed.body).toContain(
      'claimed again by its own session in comment 9',
    );
  });
});
