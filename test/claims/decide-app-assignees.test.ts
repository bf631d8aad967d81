import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import type { Action } from '../../src/claims/plan.js';
import { claim, DEFAULT_CONFIG, facts, NOW } from '../helpers/thread-builder.js';

const IN_PROGRESS = 'status:in-progress';

/** Only the assignee writes, as `unassign alice` / `assign bob`. */
function assigneeWrites(actions: readonly Action[]): string[] {
  return actions.flatMap((a) =>
    a.kind === 'assign' || a.kind === 'unassign' ? [`${a.kind} ${a.login}`] : [],
  );
}

// docs/protocol.md §4: an assignee the app added for a claim is removed when that claim no
// longer holds, whoever its author has become; without the app's memory, the markers decide.
describe('decide: the assignees the app remembers adding', () => {
  const aliceOutside = claim({ id: 1, by: 'alice', association: 'NONE' });
  const bob = claim({ id: 2, by: 'bob' });

  it.each([
    {
      rule: 'a claimant who stopped being a collaborator is unassigned when another holds',
      comments: [aliceOutside, bob],
      assignees: ['alice'],
      remembered: ['alice'],
      writes: ['unassign alice', 'assign bob'],
    },
    {
      rule: 'without the memory, the untrusted marker counts for nothing (as before)',
      comments: [aliceOutside, bob],
      assignees: ['alice'],
      remembered: undefined,
      writes: ['assign bob'],
    },
    {
      rule: 'the holder the app assigned stays assigned',
      comments: [claim({ id: 1, by: 'alice' })],
      assignees: ['alice'],
      remembered: ['alice'],
      writes: [],
    },
    {
      rule: 'with no claim left, the remembered assignee is unassigned',
      comments: [aliceOutside],
      assignees: ['alice', 'carol'],
      remembered: ['alice'],
      writes: ['unassign alice'],
    },
    {
      rule: 'a remembered login a person unassigned since costs no write',
      comments: [bob],
      assignees: ['bob'],
      remembered: ['alice'],
      writes: [],
    },
    {
      rule: 'logins compare without case, and one unassign suffices for marker and memory',
      comments: [claim({ id: 1, by: 'alice', stage: 'released', outcome: 'landed' })],
      assignees: ['Alice'],
      remembered: ['ALICE'],
      writes: ['unassign Alice'],
    },
    {
      rule: 'an assignee the app did not add (a person did) is kept',
      comments: [bob],
      assignees: ['bob', 'carol'],
      remembered: ['bob'],
      writes: [],
    },
  ])('$rule', ({ comments, assignees, remembered, writes }) => {
    const plan = decide(
      facts({
        comments,
        assignees,
        labels: comments.some((c) => c.authorAssociation !== 'NONE') ? [IN_PROGRESS] : [],
        ...(remembered ? { appAssignees: remembered } : {}),
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(assigneeWrites(plan.actions)).toEqual(writes);
  });

  it('a forged marker never makes the app write, whatever it remembers', () => {
    const forged = claim({ id: 3, by: 'mallory', association: 'NONE' });
    const plan = decide(
      facts({
        comments: [claim({ id: 1, by: 'alice' }), forged],
        labels: [IN_PROGRESS],
        assignees: ['alice', 'mallory'],
        appAssignees: ['alice'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.actions).toEqual([]);
  });
});
