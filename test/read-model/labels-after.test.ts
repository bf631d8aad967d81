import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/claims/plan.js';
import { labelsAfter } from '../../src/read-model/labels-after.js';

const plan = (actions: Plan['actions']): Plan => ({
  actions,
  holder: null,
  deadline: null,
  waitlist: [],
});

describe('the labels the open-issue index records after a reconcile', () => {
  it('are the labels read, with the plan’s additions and without its removals', () => {
    const after = labelsAfter(
      ['bug', 'Status:In-Progress'],
      plan([
        { kind: 'remove-label', label: 'status:in-progress' },
        { kind: 'add-label', label: 'status:needs-review', role: 'needsReview' },
      ]),
    );
    expect(after).toEqual(['bug', 'status:needs-review']);
  });

  it('add a label once, whatever its case, and leave the labels read untouched', () => {
    const read = ['status:needs-review'];
    const after = labelsAfter(
      read,
      plan([{ kind: 'add-label', label: 'Status:Needs-Review', role: 'needsReview' }]),
    );
    expect(after).toEqual(['status:needs-review']);
    expect(read).toEqual(['status:needs-review']);
  });
});
