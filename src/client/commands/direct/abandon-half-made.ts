import type { Action } from '../../../claims/plan.js';
import { type HalfMadeClaim, planAbandon } from '../../../claims/plan-abandon.js';
import { unverifiable } from '../../core/client-error.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import { applyActions } from '../../io/apply-actions.js';
import type { Desk } from '../../io/desk.js';
import type { IssueState } from '../../io/issue-state.js';

/**
 * Seed "Failure behaviour": undoes a half-made claim (planAbandon, unless the caller planned
 * it already) and returns the error to report, which says when the clean-up failed too. Best
 * effort: the clean-up's own failure is reported, not thrown.
 */
export async function abandonHalfMade(
  desk: Desk,
  state: IssueState,
  written: HalfMadeClaim,
  what: string,
  options: { cause?: unknown; actions?: readonly Action[] } = {},
): Promise<Error> {
  const name = formatIssueRef(state.ref);
  const id = written.posted.comment.id;
  const actions = options.actions ?? planAbandon(state, written, what, desk, desk.now());
  let cleaned = true;
  try {
    await applyActions(desk, state, actions);
  } catch {
    cleaned = false;
  }
  const message = cleaned
    ? `${name}: ${what}; this session's claim in comment ${id} was finalised as abandoned and its labels removed. Run claim again.`
    : `${name}: ${what}; finalising this session's half-made claim in comment ${id} failed too, so it may still read as live: run claim again to resume it, or release it.`;
  return unverifiable(message, { issue: name, halfMade: id, cleanedUp: cleaned }, options.cause);
}
