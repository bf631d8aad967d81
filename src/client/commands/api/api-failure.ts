import { type ClientError, refused, unverifiable, usageError } from '../../core/client-error.js';
import type { ApiReply } from '../../io/claims-api-client.js';

/** The error object of a claims API answer: `{ error: { code, message, details? } }`. */
interface ApiErrorBody {
  readonly code: string;
  readonly message: string;
  // biome-ignore lint/suspicious/noExplicitAny: details differ per code; callers read theirs
  readonly details?: any;
}

/** The error of an answer, or a stand-in when the app sent none (a proxy's page, say). */
export function apiErrorOf(reply: ApiReply): ApiErrorBody {
  const error = reply.body?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') return error;
  return { code: 'UNKNOWN', message: `the claims app answered ${reply.status}` };
}

/**
 * The client's error for an answer no command reads itself, sorted into the direct mode's
 * kinds so the exit codes agree: 422 is the input error; 503 (and anything unexpected) is
 * unverifiable, never held or free; a token the app cannot name is unverifiable as in direct
 * mode's `GET /user`; 403 NOT_TRUSTED is the refusal of an untrusted author; a missing issue
 * is unverifiable as in direct mode; 409 NOT_ENFORCED is a refusal. The app's message says
 * what to do next and never holds the token.
 */
export function apiFailure(name: string, reply: ApiReply): ClientError {
  const error = apiErrorOf(reply);
  const says = `${error.code}: ${error.message}`;
  if (reply.status === 409 && error.code === 'NOT_ENFORCED') {
    // The repository turned the app off (or, for another's claim, it only observes there).
    return refused(`${name}: ${says}. Nothing was written.`, {
      issue: name,
      reason: 'not-enforced',
      code: error.code,
    });
  }
  switch (reply.status) {
    case 422: {
      const fields = (error.details?.fields ?? {}) as Record<string, string>;
      const named = Object.entries(fields).map(([field, rule]) => `${field} must be ${rule}`);
      return usageError(
        `${name}: the claims app refused the input: ${named.length > 0 ? named.join('; ') : error.message}`,
        { issue: name, fields },
      );
    }
    case 401:
      return unverifiable(
        `could not tell which account the token belongs to (the claims app answered 401 ${says}); claims need a user token, such as gh's or a personal access token`,
        { issue: name, code: error.code },
      );
    case 403:
      return refused(`${name}: ${says}. Nothing was written.`, {
        issue: name,
        reason: error.code === 'NOT_TRUSTED' ? 'untrusted' : 'not-allowed',
        code: error.code,
      });
    case 404:
      return unverifiable(
        `${name} was not found: it does not exist, is a pull request, is in a repository without the app, or this token cannot see it (${says})`,
        { issue: name, code: error.code },
      );
    default:
      return unverifiable(`${name}: the claims app answered ${reply.status} ${says}`, {
        issue: name,
        code: error.code,
        ...(reply.retryAfterS === undefined ? {} : { retryAfterS: reply.retryAfterS }),
      });
  }
}
