import type { Logger } from 'pino';
import type { Action } from '../claims/plan.js';
import type { executePlan } from '../github/execute.js';
import type { IssueKey } from '../keys.js';

/**
 * An executor for `mode: observe` (docs/protocol.md §15): it logs every action of the plan,
 * exactly as the real executor would send it, and reports each to `onObserve` (one metric
 * per action kind), and sends nothing (so it posts no comment). Nothing it does touches GitHub.
 */
export function observePlan(
  log: Logger,
  onObserve?: (action: Action, key: IssueKey) => void,
): typeof executePlan {
  return async (_octokit, key, plan) => {
    for (const action of plan.actions) {
      log.info({ action }, 'observe mode: this write was decided and not sent');
      onObserve?.(action, key);
    }
    return { posted: [] };
  };
}
