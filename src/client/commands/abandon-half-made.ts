import type { Action } from '../../claims/decide.js';
import type { ClaimComment } from '../../claims/liveness.js';
import { applyActions } from '../io/apply-actions.js';
import type { Desk } from '../io/desk.js';
import type { IssueState } from '../io/issue-state.js';
import { unverifiable } from './client-error.js';
import { finaliseAction } from './finalise-action.js';
import { formatIssueRef } from './issue-ref.js';

/** What the writes of a new claim changed, so a failure can undo exactly that. */
export interface HalfMadeClaim {
  readonly posted: ClaimComment;
  readonly takeover: boolean;
  readonly addedLabel: boolean;
  readonly assigned: boolean;
  readonly login: string;
}

/**
 * Seed "Failure behaviour": the comment was written but the labels, the assignee or the
 * read-back failed, so the half-made claim is finalised as abandoned, the status labels it
 * applied removed (both of them on a takeover, whose stale claim no longer holds either) and
 * the assignment it made taken back. Best effort: returns the error to report, which says
 * when the clean-up failed too.
 */
export async function abandonHalfMade(
  desk: Desk,
  state: IssueState,
  written: HalfMadeClaim,
  what: string,
  options: { cause?: unknown; gone?: boolean } = {},
): Promise<Error> {
  const { cause, gone = false } = options;
  const name = formatIssueRef(state.ref);
  const id = written.posted.comment.id;
  const { labels } = state.config;
  const actions: Action[] = [];
  if (!gone) {
    actions.push(
      finaliseAction(desk, written.posted, {
        own: true,
        outcome: 'abandoned',
        reason: 'lost',
        text: `the claim could not be completed: ${what}`,
      }),
    );
  }
  // A read-back that shows another session holding the issue keeps its labels.
  const otherHolds = state.holder !== null && state.holder.comment.id !== id;
  if ((written.takeover || written.addedLabel) && !otherHolds) {
    actions.push({ kind: 'remove-label', label: labels.inProgress });
  }
  if (written.takeover && !otherHolds)
    actions.push({ kind: 'remove-label', label: labels.blocked });
  if (written.assigned) actions.push({ kind: 'unassign', login: written.login });
  let cleaned = true;
  try {
    await applyActions(desk, state, actions);
  } catch {
    cleaned = false;
  }
  const message = cleaned
    ? `${name}: ${what}; this session's claim in comment ${id} was finalised as abandoned and its labels removed. Run claim again.`
    : `${name}: ${what}; finalising this session's half-made claim in comment ${id} failed too, so it may still read as live: run claim again to resume it, or release it.`;
  return unverifiable(message, { issue: name, halfMade: id, cleanedUp: cleaned }, cause);
}
