import type { Action } from '../../claims/plan.js';
import { type Executed, executePlan } from '../../github/execute.js';
import type { Desk } from './desk.js';
import { type IssueState, issueKey } from './issue-state.js';

/**
 * Applies a plan's actions to the issue in order, with the app's own executor: the same label
 * creation (colour and description), the same 404-tolerant label removal, and the session's
 * own comment writes. Stops at the first failure, which the caller reports; writes are
 * idempotent, so a retry converges (docs/protocol.md §6).
 */
export async function applyActions(
  desk: Desk,
  state: Pick<IssueState, 'ref'>,
  actions: readonly Action[],
): Promise<Executed> {
  if (actions.length === 0) return { posted: [], edited: [], checkRuns: [], outcome: 'sent' };
  return executePlan(
    desk.octokit,
    issueKey(state.ref),
    { actions },
    {
      knownLabels: desk.knownLabels,
    },
  );
}
