import { describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { HalfMadeClaim } from '../../src/claims/plan-abandon.js';
import { planConfirm } from '../../src/claims/plan-confirm.js';
import type { ThreadComment } from '../../src/claims/types.js';
import { claim, HOUR, NOW } from '../helpers/thread-builder.js';
import { CLAIMANT, claimState, kinds } from './plan-state.js';

const IN_PROGRESS = 'status:in-progress';

function written(comment: ThreadComment, assigned = true): HalfMadeClaim {
  const marker = parseClaimMarker(comment.body)!;
  return {
    posted: { comment, marker },
    takeover: false,
    addedLabel: true,
    assigned,
    login: 'alice',
  };
}

describe('planConfirm: reading back a posted claim', () => {
  const mine = claim({ id: 9, session: 'mine' });

  it.each([
    ['it holds the issue: nothing more to write', [mine], [], 'held', []],
    [
      'an older live claim won the race: finalised, and the assignment it made taken back',
      [claim({ id: 3, by: 'bob' }), mine],
      ['alice', 'bob'],
      'lost',
      ['finalise 9 abandoned (lost)', 'unassign alice'],
    ],
    [
      'its author is not trusted: finalised, its label and assignment undone',
      [{ ...mine, authorAssociation: 'NONE' }],
      ['alice'],
      'untrusted',
      ['finalise 9 abandoned (lost)', `remove-label ${IN_PROGRESS}`, 'unassign alice'],
    ],
    [
      'it was deleted: its label and assignment undone',
      [],
      ['alice'],
      'unconfirmed',
      [`remove-label ${IN_PROGRESS}`, 'unassign alice'],
    ],
    [
      'it reads back stale (a clock far behind): finalised and undone',
      [claim({ id: 9, session: 'mine', updatedAgoMs: 7 * HOUR, editedAgoMs: 0 })],
      ['alice'],
      'unconfirmed',
      ['finalise 9 abandoned (lost)', `remove-label ${IN_PROGRESS}`, 'unassign alice'],
    ],
  ])('%s', (_name, comments, assignees, kind, actions) => {
    const readback = claimState({ comments, assignees, labels: [IN_PROGRESS] });
    const plan = planConfirm(readback, written(mine), CLAIMANT, NOW);
    expect(plan.kind).toBe(kind);
    expect(kinds('actions' in plan ? plan.actions : [])).toEqual(actions);
  });
});
