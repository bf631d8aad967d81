import { LockLostError } from '../../fence/lease.js';
import { statusOf } from '../../github/errors.js';
import { ApiError, DEFAULT_RETRY_AFTER_S, unverifiable } from '../answers/api-error.js';

/** A GitHub answer to a call made with the caller's token. */
interface GitHubAnswer {
  readonly status: number;
  readonly data: unknown;
  readonly headers: Headers;
}

/**
 * GitHub's REST API as the caller: the reads the API makes with the caller's own token
 * (`GET /user`, reading a repository). A plain `fetch`, so the token lives only in this
 * closure: never logged, stored or echoed. The caller's writes go through the executor
 * (src/github/caller-octokit.ts).
 */
export type CallerGitHub = (method: 'GET', path: string) => Promise<GitHubAnswer>;

/** A {@link CallerGitHub} for `token` against the API at `baseUrl`. Network errors throw. */
export function callerGitHub(baseUrl: string, token: string): CallerGitHub {
  return async (method, path) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'claim-warden-api',
      },
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let data: unknown = null;
    try {
      data = text === '' ? null : JSON.parse(text);
    } catch {
      data = text;
    }
    return { status: response.status, data, headers: response.headers };
  };
}

/**
 * Whether a GitHub answer (or an octokit error) is GitHub failing rather than refusing: a
 * network error, a 5xx, or a rate limit. GitHub tells a rate limit by a 429, or by a 403 with
 * no budget left (`x-ratelimit-remaining: 0`, the primary limit), with `retry-after` or with a
 * message naming a (secondary) rate limit. Such an answer says nothing about the caller, so it
 * is never kept as one (docs/protocol.md §8 "Never a guess").
 */
export function isGitHubFailure(
  status: number | undefined,
  headers?: Headers,
  data?: unknown,
): boolean {
  if (status === undefined) return true;
  if (status >= 500 || status === 429) return true;
  if (status !== 403) return false;
  if (headers?.get('x-ratelimit-remaining') === '0' || headers?.has('retry-after')) return true;
  return /rate limit/i.test(messageOf(data));
}

/** GitHub's `message` of an error answer ('' when there is none). */
export function messageOf(data: unknown): string {
  const message = (data as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
}

/** The seconds GitHub asked to wait (`retry-after`, `x-ratelimit-reset`), if any. */
export function retryAfterOf(headers: Headers | undefined, nowMs: number): number {
  const after = Number(headers?.get('retry-after'));
  if (Number.isFinite(after) && after > 0) return after;
  const reset = Number(headers?.get('x-ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0 && headers?.get('x-ratelimit-remaining') === '0') {
    return Math.max(1, reset - Math.floor(nowMs / 1000));
  }
  return DEFAULT_RETRY_AFTER_S;
}

/** An octokit error (app or installation token) as the API answers it: 503 when GitHub failed. */
export function githubFailure(error: unknown, what: string, nowMs: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof LockLostError) return unverifiable(error.message, 1);
  const response = (error as { response?: { headers?: Record<string, string> } })?.response;
  const headers = new Headers(response?.headers ?? {});
  return unverifiable(
    `${what} (GitHub answered ${statusOf(error) ?? 'nothing'})`,
    retryAfterOf(headers, nowMs),
  );
}
