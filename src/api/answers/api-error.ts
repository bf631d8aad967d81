/** The error codes of the claims API (docs/protocol.md §8, §9, §10, §16, §17). */
type ApiErrorCode =
  | 'UNAUTHENTICATED'
  | 'NOT_TRUSTED'
  | 'NOT_ALLOWED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'INVALID_INPUT'
  | 'ISSUE_ALREADY_CLAIMED'
  | 'ISSUE_NOT_OPEN'
  | 'PATHS_CLAIMED'
  | 'CLAIM_NOT_HELD'
  | 'PEOPLE_WAITING'
  | 'NEEDS_REVIEW'
  | 'IN_GRACE'
  | 'CONFIG_INVALID'
  | 'NOT_ENFORCED'
  | 'RATE_LIMITED'
  | 'TOKEN_CANNOT_WRITE'
  | 'GITHUB_REFUSED'
  | 'UNVERIFIABLE';

/**
 * An answer other than success: its status, code and a message saying what to do next. The
 * router renders it as `{ error: { code, message, details? } }` (docs/protocol.md §8).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/**
 * 422 INVALID_INPUT: `fields` maps each bad field to what it must hold. The map is copied
 * into own properties, so a field named `__proto__` is named too, never lost as a prototype.
 */
export function invalidInput(fields: Record<string, string>): ApiError {
  const named = Object.fromEntries(Object.entries(fields));
  const names = Object.keys(named).join(', ');
  return new ApiError(422, 'INVALID_INPUT', `fix ${names} and send the request again`, {
    fields: named,
  });
}

/** How long a caller is told to wait after GitHub failed, when GitHub named no time. */
export const DEFAULT_RETRY_AFTER_S = 5;

/**
 * 503 UNVERIFIABLE (docs/protocol.md §8 "Never a guess"): GitHub failed during the call, so
 * nothing is reported as held or free. `retryAfterS` goes to the `retry-after` header.
 */
export function unverifiable(what: string, retryAfterS = DEFAULT_RETRY_AFTER_S): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterS));
  return new ApiError(
    503,
    'UNVERIFIABLE',
    `${what}; nothing is known for sure, so nothing is reported as held or free: retry in ${seconds} s`,
    undefined,
    { 'retry-after': String(seconds) },
  );
}

/** The error object of an answer, `{ code, message, details? }`, as every door renders it. */
export function errorObject(known: ApiError): {
  code: string;
  message: string;
  details?: Record<string, unknown>;
} {
  return {
    code: known.code,
    message: known.message,
    ...(known.details ? { details: known.details } : {}),
  };
}
