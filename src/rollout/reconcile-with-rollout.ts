import type { ProbotOctokit } from 'probot';
import type { Plan } from '../claims/plan.js';
import type { ResolvedRepoConfig } from '../config/repo-config.js';
import { executePlan, type WriteAction } from '../github/execute.js';
import { rolloutOf } from '../github/rollout-of.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import type { ReconcileRequest } from '../queue/queue.js';
import {
  type ReconcileDeps,
  type ReconcileResult,
  reconcileIssue,
} from '../reconcile/reconcile.js';

/** A repository's config with its rollout keys: usable, or invalid with the field named. */
type RolloutLookup =
  | { readonly ok: true; readonly config: ResolvedRepoConfig }
  | { readonly ok: false; readonly error: string };

/** What a reconcile needs, with the config's rollout keys and a sink for observed writes. */
interface RolloutDeps extends Omit<ReconcileDeps, 'configFor'> {
  /** Throws when the config could not be read (the reconcile is retried). */
  configFor(octokit: ProbotOctokit, key: IssueKey): Promise<RolloutLookup>;
  /** Called for each write that observe mode decided and did not send. */
  onObserve?(action: WriteAction, key: IssueKey): void;
}

/** How one reconcile ended, rollout outcomes included. */
export type RolloutResult =
  | ReconcileResult
  | { readonly outcome: 'observed'; readonly plan: Plan }
  | { readonly outcome: 'disabled' };

/**
 * reconcileIssue under the repository's rollout keys (docs/protocol.md §15):
 * - `enabled: false`: nothing is read beyond the config and nothing is written; the issue
 *   leaves the deadline index, so the sweep does not come back for it;
 * - `mode: observe`: the thread is read and decide runs as usual, and the executor logs and
 *   counts the plan instead of writing it (docs/protocol.md §15, applied in executePlan).
 * The config is read once and handed to reconcileIssue, so the rollout costs no call.
 */
export async function reconcileWithRollout(
  deps: RolloutDeps,
  request: ReconcileRequest,
): Promise<RolloutResult> {
  const { key } = request;
  const octokit = await deps.octokitFor(key.installationId);
  const lookup = await deps.configFor(octokit, key);
  if (lookup.ok && !lookup.config.enabled) {
    await deps.store.setDeadline(key, null);
    await deps.store.setHolder(key, null);
    deps.log.debug(
      { issue: issueKeyString(key), reason: request.reason },
      'repository disabled (enabled: false): left alone',
    );
    return { outcome: 'disabled' };
  }
  const observing = lookup.ok && lookup.config.mode === 'observe';
  const rollout = lookup.ok && rolloutOf(lookup.config, deps);
  const execute = deps.executePlan ?? executePlan;
  const result = await reconcileIssue(
    {
      ...deps,
      octokitFor: async () => octokit,
      configFor: async () => lookup,
      ...(rollout
        ? { executePlan: (w, k, plan, options) => execute(w, k, plan, { ...options, rollout }) }
        : {}),
      ...(observing ? { observing } : {}),
    },
    request,
  );
  return observing && result.outcome === 'applied'
    ? { outcome: 'observed', plan: result.plan }
    : result;
}
