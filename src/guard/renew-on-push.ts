import { editClaimBody } from '../claims/claim-body.js';
import { decide } from '../claims/decide.js';
import { agentHolder } from '../claims/holder-summary.js';
import { parseClaimMarker } from '../claims/marker.js';
import type { Hint } from '../claims/types.js';
import { configForReconcile } from '../config/config-for-reconcile.js';
import type { Lease } from '../fence/lease.js';
import { installationReads } from '../github/conditional.js';
import { IssueGoneError } from '../github/errors.js';
import { executePlan } from '../github/execute.js';
import { rolloutOf } from '../github/rollout-of.js';
import { readThread } from '../github/thread.js';
import { type IssueKey, issueKeyString, repoOf } from '../keys.js';
import type { GuardDeps } from './guard-deps.js';
import { pushMayRenew, renewedTooRecently } from './push-renewal.js';

/** What a push came to for the claim it named. */
type RenewResult =
  | 'renewed'
  | 'observed'
  | 'disabled'
  | 'fresh'
  | 'not-holder-branch'
  | 'not-the-author'
  | 'off'
  | 'invalid-config'
  | 'gone';

/**
 * The branch heartbeat (docs/protocol.md §11): a push to the branch the issue's holder names,
 * by the holder's author or a trusted bot, renews the claim. The holder's comment is edited,
 * marker `updated` and the `- Updated:` line, to the push time, with the core's renderer and
 * the one executor. No write while the marker's `updated` is less than a tenth of the stale
 * window older than the push, so a burst of pushes costs one write. Runs in the queue under
 * the issue's mutual exclusion, on the thread as it is now (never on the index's word).
 * Under the repository's rollout keys (docs/protocol.md §11): `enabled: false` reads nothing
 * beyond the config and writes nothing; `mode: observe` decides as usual, the executor logs
 * the edit it would send and sends none, and no deadline moves (the claim was not renewed).
 * Throws on any GitHub failure, so the queue retries.
 */
export async function renewOnPush(
  deps: GuardDeps,
  key: IssueKey,
  push: Extract<Hint, { kind: 'push-heartbeat' }>,
  lease?: Lease,
): Promise<RenewResult> {
  const octokit = await deps.octokitFor(key.installationId);
  const lookup = configForReconcile(await deps.configOf(octokit, repoOf(key)));
  if (!lookup.ok) return 'invalid-config';
  const config = lookup.config;
  if (!config.enabled) return 'disabled';
  if (!config.heartbeatOnPush) return 'off';
  let thread: Awaited<ReturnType<typeof readThread>>;
  try {
    thread = await readThread(octokit, key, installationReads(deps.store, key.installationId));
  } catch (error) {
    if (error instanceof IssueGoneError) return 'gone';
    throw error;
  }
  const now = deps.now();
  const holder = agentHolder(
    decide({ ...thread, appLogin: deps.appLogin, hints: [] }, config, now).holder,
  );
  if (holder === null || holder.branch !== push.branch) return 'not-holder-branch';
  // docs/protocol.md §11: a push by anyone else renews nothing.
  if (!pushMayRenew(holder.author, push.pusher, config.trustedBots)) return 'not-the-author';
  const comment = thread.comments.find((c) => c.id === holder.commentId);
  const marker = comment === undefined ? null : parseClaimMarker(comment.body);
  if (comment === undefined || marker === null) return 'not-holder-branch';
  // Whole seconds: the marker is written so, and a renewal must not move it backwards.
  const at = new Date(Math.floor(Math.min(Date.parse(push.at), now.getTime()) / 1000) * 1000);
  if (renewedTooRecently(marker.updated, at.getTime(), config.staleAfterMs)) return 'fresh';
  const body = editClaimBody(comment.body, { marker: { ...marker, updated: at } });
  const done = await executePlan(
    octokit,
    key,
    { actions: [{ kind: 'edit-claim', commentId: comment.id, body }] },
    {
      knownLabels: deps.knownLabels,
      rollout: rolloutOf(config, deps),
      lease,
    },
  );
  if (done.outcome !== 'sent') return 'observed';
  // GitHub's `updated_at` is now, later than the push: the heartbeat is the push time.
  await deps.store.setDeadline(key, new Date(at.getTime() + config.staleAfterMs + 1));
  await deps.store.setBranchHolder(key, {
    commentId: holder.commentId,
    author: holder.author,
    branch: holder.branch,
    heartbeat: at,
  });
  deps.log.info(
    { issue: issueKeyString(key), commentId: comment.id, branch: push.branch, at },
    'claim renewed by a push to its branch',
  );
  return 'renewed';
}
