import type { Action } from '../../claims/plan.js';
import type { ThreadComment } from '../../claims/types.js';
import { LockLostError } from '../../fence/lease.js';
import { statusOf } from '../../github/errors.js';
import { executePlan } from '../../github/execute.js';
import { rolloutOf } from '../../github/rollout-of.js';
import { type IssueKey, issueRef } from '../../keys.js';
import { ApiError, unverifiable } from '../answers/api-error.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { isGitHubFailure, messageOf, retryAfterOf } from '../caller/caller-github.js';
import { issueNotFound } from '../caller/not-found.js';
import type { IssueAtHand } from './on-issue.js';

/**
 * Posts or edits the caller's claim comment with the caller's own token (docs/protocol.md §8
 * "Who writes what"), through the one executor as the `own` of its writers: its author is the
 * caller, so it is an ordinary claim to every reader. Returns the comment as GitHub made it;
 * GitHub's refusal or failure becomes the API's answer (§8 "Refusals").
 */
export async function writeAsCaller(
  deps: Pick<ApiDeps, 'log' | 'now'>,
  caller: Caller,
  at: Pick<IssueAtHand, 'key' | 'repo' | 'config' | 'lease'>,
  action: Extract<Action, { kind: 'post-claim' | 'edit-claim' }>,
): Promise<ThreadComment> {
  const what =
    action.kind === 'post-claim' ? 'posting the claim comment' : 'editing the claim comment';
  const nowMs = deps.now().getTime();
  try {
    const done = await executePlan(
      { own: caller.octokit, app: at.repo.octokit },
      at.key,
      { actions: [action] },
      { rollout: rolloutOf(at.config, deps), lease: at.lease },
    );
    const comment = done.posted[0] ?? done.edited[0];
    if (comment === undefined) throw unverifiable(`${what} on ${issueRef(at.key)} was not sent`);
    return comment;
  } catch (error) {
    throw callerWriteFailure(error, at.key, what, nowMs);
  }
}

/** An octokit error of a write with the caller's token, as the API answers it. */
function callerWriteFailure(error: unknown, key: IssueKey, what: string, nowMs: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof LockLostError) return unverifiable(error.message, 1);
  const response = (error as { response?: { headers?: object; data?: unknown } }).response;
  const status = statusOf(error);
  if (response === undefined || status === undefined) {
    return unverifiable(
      `${what} on ${issueRef(key)} got no answer from GitHub (it may have been kept: repeat the call with the same session)`,
    );
  }
  const headers = new Headers(
    Object.entries(response.headers ?? {}).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, String(value)] as [string, string]],
    ),
  );
  const answer = { status, headers, data: response.data };
  if (answer.status === 401) {
    return new ApiError(
      401,
      'UNAUTHENTICATED',
      'GitHub refused your token while writing: send a valid token',
    );
  }
  if (isGitHubFailure(answer.status, answer.headers, answer.data)) {
    return unverifiable(
      `${what} on ${issueRef(key)} failed (GitHub answered ${answer.status})`,
      retryAfterOf(answer.headers, nowMs),
    );
  }
  // docs/protocol.md §8 "Refusals": what GitHub refuses for good is told as such, with what to
  // do; a 503 would have the caller retry for ever. The token could read the repository (it
  // was checked first), so a 404 or 403 here is a token that may not write its comments: a
  // fine-grained token without "Issues: write" (GitHub answers 404), a locked issue (403).
  const github = messageOf(answer.data);
  if (answer.status === 404 || answer.status === 403) {
    return new ApiError(
      403,
      'TOKEN_CANNOT_WRITE',
      `your token cannot write issue comments on ${key.owner}/${key.repo}: give it Issues: write on that repository (a fine-grained token needs it listed), or use one that has it${github ? ` (GitHub answered ${answer.status}: ${clip(github)})` : ''}`,
      { github: { status: answer.status, message: clip(github) } },
    );
  }
  if (answer.status === 410) return issueNotFound();
  if (answer.status >= 400 && answer.status < 500) {
    const reasons = errorsOf(answer.data);
    return new ApiError(
      422,
      'GITHUB_REFUSED',
      `GitHub refused ${what} on ${issueRef(key)} (${answer.status} ${clip(github) || 'without a reason'}${reasons ? `: ${reasons}` : ''}); sending it again will not change that: shorten the note, or report this answer`,
      { github: { status: answer.status, message: clip(github) } },
    );
  }
  return unverifiable(
    `${what} on ${issueRef(key)} failed (GitHub answered ${answer.status})`,
    retryAfterOf(answer.headers, nowMs),
  );
}

/** GitHub's text, kept short: it is shown to the caller, never a secret. */
function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The reasons of a 422's `errors` (`[{ message }]` or `[{ field, code }]`), joined. */
function errorsOf(data: unknown): string {
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return '';
  return clip(
    errors
      .map((e: { message?: unknown; field?: unknown; code?: unknown }) =>
        typeof e?.message === 'string'
          ? e.message
          : [e?.field, e?.code].filter((x) => typeof x === 'string').join(' '),
      )
      .filter((x) => x !== '')
      .join('; '),
  );
}
