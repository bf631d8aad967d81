import { sameName } from '../claims/names.js';
import type { Plan } from '../claims/plan.js';

/**
 * The labels once the plan's label writes are applied: what the open-issue index
 * records after a reconcile (docs/protocol.md §9), so the queue never answers from the labels
 * the reconcile read before it added `status:needs-review` (§17) or removed a status label.
 */
export function labelsAfter(labels: readonly string[], plan: Plan): readonly string[] {
  let after = [...labels];
  for (const action of plan.actions) {
    if (action.kind === 'remove-label') {
      after = after.filter((label) => !sameName(label, action.label));
    } else if (action.kind === 'add-label' && !after.some((l) => sameName(l, action.label))) {
      after.push(action.label);
    }
  }
  return after;
}
