import type { ThreadComment } from '../claims/types.js';
import type { IssueKey } from '../store/store.js';
import { ApiError, unverifiable } from './api-error.js';
import type { Caller } from './authenticate.js';
import { retryAfterOf } from './caller-github.js';
import { issueRef } from './serialise.js';

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
  if (answer.status === 403 && answer.headers.get('x-ratelimit-remaining') !== '0') {
    throw new ApiError(
      403,
      'NOT_TRUSTED',
      `your token may not comment on ${issueRef(key)}: a fine-grained token needs "Issues: read and write" on the repository`,
    );
  }
  throw unverifiable(
    `${what} on ${issueRef(key)} failed (GitHub answered ${answer.status})`,
    retryAfterOf(answer.headers, nowMs),
  );
}
