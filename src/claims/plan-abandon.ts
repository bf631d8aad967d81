import type { Claimant, ClaimState } from './claim-state.js';
import { finaliseAction } from './finalise-action.js';
import type { ClaimComment } from './liveness.js';
import type { Action } from './plan.js';

/** What the writes of a new claim changed, so a failure can undo exactly that. */
export interface HalfMadeClaim {
  readonly posted: ClaimComment;
  readonly takeover: boolean;
  readonly addedLabel: boolean;
  readonly assigned: boolean;
  readonly login: string;
}

/**
 * Undoes a half-made claim (docs/protocol.md §6): the comment was written but the
 * labels, the assignee or the read-back failed, so the comment is finalised as abandoned
 * (unless it is `gone`), the status labels it applied removed (both of them on a takeover,
 * whose stale claim no longer holds either) and the assignment it made taken back. A state
 * that shows another session holding the issue keeps its labels.
 */
export function planAbandon(
  state: ClaimState,
  written: HalfMadeClaim,
  what: string,
  claimant: Claimant,
  now: Date,
  gone = false,
): Action[] {
  const { labels } = state.config;
  const actions: Action[] = [];
  if (!gone) {
    const text = `the claim could not be completed: ${what}`;
    const spec = { own: true, outcome: 'abandoned', reason: 'lost', text } as const;
    actions.push(finaliseAction(claimant, written.posted, spec, now));
  }
  const id = written.posted.comment.id;
  const otherHolds = state.holder !== null && state.holder.comment.id !== id;
  if ((written.takeover || written.addedLabel) && !otherHolds) {
    actions.push({ kind: 'remove-label', label: labels.inProgress });
  }
  if (written.takeover && !otherHolds) {
    actions.push({ kind: 'remove-label', label: labels.blocked });
  }
  if (written.assigned) actions.push({ kind: 'unassign', login: written.login });
  return actions;
}
