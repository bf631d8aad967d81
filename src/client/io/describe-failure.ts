import { statusOf } from '../../github/errors.js';
import { noAnswer } from '../../github/no-answer.js';
import { ClientError } from '../core/client-error.js';

/**
 * One line saying what went wrong, for messages: the HTTP status and the request GitHub
 * refused, a host that could not be reached, a cancelled request, or the error's own
 * message. Never the token: octokit's errors carry the URL and GitHub's message, and the
 * request headers are not used here.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof ClientError) return error.message;
  if (isAbort(error)) return 'the request was cancelled before GitHub answered';
  // octokit reports a request that got no answer as status 500: say what happened instead.
  const unanswered = noAnswer(error);
  if (unanswered) return `could not connect to ${unanswered.host} (${unanswered.reason})`;
  const status = statusOf(error);
  if (status !== undefined) {
    const request = (error as { request?: { method?: string; url?: string } }).request;
    const where =
      request?.method && request.url ? ` to ${request.method} ${pathOf(request.url)}` : '';
    const limited =
      status === 403 || status === 429 ? ' (a rate limit or a missing permission)' : '';
    return `GitHub answered ${status}${where}${limited}`;
  }
  const cause = (error as { cause?: unknown })?.cause;
  if (cause !== undefined && statusOf(cause) !== undefined) return describeFailure(cause);
  return error instanceof Error ? error.message : String(error);
}

/** True for a request stopped by an AbortSignal (the deadline, or the MCP client). */
function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown })?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

/** The path of a request URL without the API base's host or query, for shorter messages. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/^\/api\/v3/, '');
  } catch {
    return url;
  }
}
