import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { Plan } from '../claims/plan.js';
import type { ResolvedRepoConfig } from '../config/repo-config.js';
import { executePlan } from '../github/execute.js';
import { rolloutOf } from '../github/rollout-of.js';
import type { IssueKey } from '../keys.js';
import type { ReconcileDeps } from './reconcile-deps.js';

/**
 * Sends a reconcile's plan under the repository's rollout keys (docs/protocol.md §15, applied
 * in the executor): observe mode logs and counts each write instead. Each finalisation is
 * logged with why it happened.
 */
export async function applyPlan(
  deps: ReconcileDeps,
  octokit: ProbotOctokit,
  key: IssueKey,
  plan: Plan,
  config: ResolvedRepoConfig,
  log: Logger,
): Promise<void> {
  await (deps.executePlan ?? executePlan)(octokit, key, plan, {
    knownLabels: deps.knownLabels,
    rollout: rolloutOf(config, deps),
    onWrite: (action) => {
      if (action.kind === 'finalise') {
        // `reason` is the child's (what started the reconcile): one key, one meaning per line.
        const { commentId, reason: finalisedBecause, outcome } = action;
        log.info({ commentId, finalisedBecause, outcome }, 'claim finalised');
      }
      deps.onWrite?.(action, key);
    },
  });
}
