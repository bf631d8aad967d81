import { repoOf } from '../keys.js';
import type { ReconcileRequest } from '../queue/queue.js';
import { checkConfig } from './check-config.js';
import { checkPullRequest } from './check-pull-request.js';
import type { GuardDeps } from './guard-deps.js';
import { guardJobsOf } from './guard-request.js';
import { renewOnPush } from './renew-on-push.js';

/**
 * Runs the guard's work carried by a queued request (docs/protocol.md §11): the pull request's
 * paths check, a branch heartbeat, a config check, or several coalesced. Throws so the queue retries.
 */
export async function runGuardJobs(deps: GuardDeps, request: ReconcileRequest): Promise<void> {
  const jobs = guardJobsOf(request);
  // Their writes are fenced by the issue lock's lease, as a reconcile's are (src/fence/lease.ts).
  const { lease } = request;
  if (jobs.heartbeat) await renewOnPush(deps, request.key, jobs.heartbeat, lease);
  if (jobs.checkPull) await checkPullRequest(deps, request.key, jobs.checkPull.head, lease);
  for (const sha of jobs.configShas) await checkConfig(deps, repoOf(request.key), sha);
}
