import type { Action } from '../../claims/decide.js';
import { hasName } from '../../claims/names.js';
import { executePlan } from '../../github/execute.js';
import type { Desk } from './desk.js';
import { type IssueState, issueKey } from './issue-state.js';

/**
 * Applies actions to the issue in order, with the app's own executor: the same label
 * creation (colour and description), the same 404-tolerant label removal. Stops at the first
 * failure, which the caller reports; writes are idempotent, so a retry converges (SPEC §6).
 */
export async function applyActions(
  desk: Desk,
  state: IssueState,
  actions: readonly Action[],
): Promise<void> {
  if (actions.length === 0) return;
  await executePlan(
    desk.octokit,
    issueKey(state.ref),
    { actions, holder: null, deadline: null },
    { knownLabels: desk.knownLabels },
  );
}

/** True when the issue carries the label; GitHub compares label names without case. */
export function hasLabel(state: IssueState, label: string): boolean {
  return hasName(state.thread.labels, label);
}

/** True when the login is assigned to the issue; logins compare without case. */
export function isAssigned(state: IssueState, login: string): boolean {
  return hasName(state.thread.assignees, login);
}
