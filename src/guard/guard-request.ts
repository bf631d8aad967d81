import type { Hint, PullHead } from '../claims/types.js';
import type { IssueKey, RepoKey } from '../keys.js';
import { REASON_SEPARATOR, type ReconcileRequest } from '../queue/queue.js';

/** Starts the reason of every request the guard queues, so the queue's runner tells them apart. */
const GUARD_REASON_PREFIX = 'guard:';

type CheckPullHint = Extract<Hint, { kind: 'check-pull' }>;
type HeartbeatHint = Extract<Hint, { kind: 'push-heartbeat' }>;

/**
 * The issue number a repository's config check is queued under: no issue has it, so checks of
 * one repository's config run one at a time and never beside a reconcile.
 */
const CONFIG_CHECK_NUMBER = 0;

/** A request to set the `claim-warden/config` check run on commit `sha` (docs/protocol.md §11). */
export function configCheckRequestOf(repo: RepoKey, sha: string): ReconcileRequest {
  return {
    key: { ...repo, number: CONFIG_CHECK_NUMBER },
    hints: [{ kind: 'check-config', sha }],
    reason: `${GUARD_REASON_PREFIX}config`,
  };
}

/** A request to set a pull request's paths check (docs/protocol.md §11). */
export function checkPullRequestOf(
  key: IssueKey,
  head: PullHead | undefined,
  reason: string,
  at: Date,
): ReconcileRequest {
  const hint: CheckPullHint = {
    kind: 'check-pull',
    ...(head === undefined ? {} : { head }),
    at: at.toISOString(),
  };
  return { key, hints: [hint], reason: `${GUARD_REASON_PREFIX}${reason}` };
}

/** A request to renew the holder of `key` for a push to its branch (docs/protocol.md §11). */
export function heartbeatRequestOf(
  key: IssueKey,
  push: { readonly branch: string; readonly pusher: string; readonly at: string },
): ReconcileRequest {
  const hint: HeartbeatHint = { kind: 'push-heartbeat', ...push };
  return { key, hints: [hint], reason: `${GUARD_REASON_PREFIX}push` };
}

/** The guard's work in a (possibly coalesced) request: the newest of each kind. */
interface GuardJobs {
  /** Set when the pull request is to be checked; `head` the newest one an event gave. */
  readonly checkPull?: { readonly head?: PullHead };
  readonly heartbeat?: HeartbeatHint;
  /** The commits whose config check is due. */
  readonly configShas: readonly string[];
}

/** Reads the guard's hints of a request; coalesced requests keep the newest head and push. */
export function guardJobsOf(request: ReconcileRequest): GuardJobs {
  let check: CheckPullHint | undefined;
  let heartbeat: HeartbeatHint | undefined;
  const configShas: string[] = [];
  for (const hint of request.hints) {
    if (hint.kind === 'check-config' && !configShas.includes(hint.sha)) configShas.push(hint.sha);
    if (hint.kind === 'check-pull') {
      // A head an event reported beats none; of two, the later one.
      if (check === undefined || (hint.head !== undefined && !(check.head && check.at > hint.at)))
        check = hint;
    }
    if (hint.kind === 'push-heartbeat' && (heartbeat === undefined || hint.at > heartbeat.at)) {
      heartbeat = hint;
    }
  }
  return {
    ...(check === undefined ? {} : { checkPull: check.head ? { head: check.head } : {} }),
    ...(heartbeat === undefined ? {} : { heartbeat }),
    configShas,
  };
}

/** Whether a request asks for more than the guard's work: a reconcile of the issue. */
export function needsReconcile(request: ReconcileRequest): boolean {
  return request.reason
    .split(REASON_SEPARATOR)
    .some((reason) => !reason.startsWith(GUARD_REASON_PREFIX));
}
