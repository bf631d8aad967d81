import type { ThreadComment } from '../claims/types.js';
import type { IssueKey } from '../keys.js';
import { issueRef } from '../keys.js';
import { ApiError, unverifiable } from './api-error.js';
import type { Caller } from './authenticate.js';
import { isGitHubFailure, messageOf, retryAfterOf } from './caller-github.js';
import { issueNotFound } from './not-found.js';

/**
 * Posts a claim comment with the caller's own token (docs/protocol.md §8 "Who writes what"):
 * its author is the caller, so it is an ordinary claim to every reader.
 */
export async function postAsCaller(
  caller: Caller,
  key: IssueKey,
  body: string,
  nowMs: number,
): Promise<ThreadComment> {
  const path = `/repos/${key.owner}/${key.repo}/issues/${key.number}/comments`;
  return write(caller, 'POST', path, body, key, nowMs, 'posting the claim comment');
}

/** Edits the caller's own claim comment with the caller's token. */
export async function editAsCaller(
  caller: Caller,
  key: IssueKey,
  commentId: number,
  body: string,
  nowMs: number,
): Promise<ThreadComment> {
  const path = `/repos/${key.owner}/${key.repo}/issues/comments/${commentId}`;
  return write(caller, 'PATCH', path, body, key, nowMs, 'editing the claim comment');
}

async function write(
  caller: Caller,
  method: 'POST' | 'PATCH',
  path: string,
  body: string,
  key: IssueKey,
  nowMs: number,
  what: string,
): Promise<ThreadComment> {
  let answer: Awaited<ReturnType<Caller['github']>>;
  try {
    answer = await caller.github(method, path, { body });
  } catch {
    throw unverifiable(
      `${what} on ${issueRef(key)} got no answer from GitHub (it may have been kept: repeat the call with the same session)`,
    );
  }
  if (answer.status === 200 || answer.status === 201) {
    const c = answer.data as {
      id: number;
      body?: string;
      user?: { login?: string } | null;
      author_association?: string;
      created_at: string;
      updated_at: string;
      html_url?: string;
    };
    return {
      id: c.id,
      author: c.user?.login ?? caller.login,
      authorAssociation: c.author_association ?? 'NONE',
      body: c.body ?? body,
      createdAt: new Date(c.created_at),
      updatedAt: new Date(c.updated_at),
      ...(c.html_url ? { url: c.html_url } : {}),
    };
  }
  if (answer.status === 401) {
    throw new ApiError(
      401,
      'UNAUTHENTICATED',
      'GitHub refused your token while writing: send a valid token',
    );
  }
  if (isGitHubFailure(answer.status, answer.headers, answer.data)) {
    throw unverifiable(
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
    throw new ApiError(
      403,
      'TOKEN_CANNOT_WRITE',
      `your token cannot write issue comments on ${key.owner}/${key.repo}: give it Issues: write on that repository (a fine-grained token needs it listed), or use one that has it${github ? ` (GitHub answered ${answer.status}: ${clip(github)})` : ''}`,
      { github: { status: answer.status, message: clip(github) } },
    );
  }
  if (answer.status === 410) throw issueNotFound();
  if (answer.status >= 400 && answer.status < 500) {
    const reasons = errorsOf(answer.data);
    throw new ApiError(
      422,
      'GITHUB_REFUSED',
      `GitHub refused ${what} on ${issueRef(key)} (${answer.status} ${clip(github) || 'without a reason'}${reasons ? `: ${reasons}` : ''}); sending it again will not change that: shorten the note, or report this answer`,
      { github: { status: answer.status, message: clip(github) } },
    );
  }
  throw unverifiable(
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
