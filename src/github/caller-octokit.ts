import { ProbotOctokit } from 'probot';

/** How long one call with the caller's token may take before it counts as unanswered. */
const CALLER_TIMEOUT_MS = 10_000;

const QUIET = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * An octokit that writes as the claims API's caller, with their own token (docs/protocol.md §8
 * "Who writes what"): the `own` of the executor's Writers, so the caller's claim comment is
 * theirs to every reader. Nothing is retried or held back here: the API answers every GitHub
 * failure itself (a 503 the caller retries with the same session), and the caller's writes
 * are theirs to pace. The token lives only in the octokit's auth hook: never logged or echoed.
 */
export function callerOctokit(baseUrl: string, token: string): ProbotOctokit {
  return new ProbotOctokit({
    auth: { token },
    baseUrl,
    userAgent: 'claim-warden-api',
    log: QUIET,
    throttle: { enabled: false },
    retry: { enabled: false },
    request: {
      // A request's own signal (the issue lock's lease, src/fence/lease.ts) is kept.
      fetch: (url: string, init: RequestInit) => {
        const timeout = AbortSignal.timeout(CALLER_TIMEOUT_MS);
        const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
        return fetch(url, { ...init, signal });
      },
    },
  });
}
