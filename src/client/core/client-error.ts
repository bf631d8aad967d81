/**
 * The one error type of the agent client. Every failure a command can meet is sorted into
 * one of four kinds, and each kind has one exit code (see exit-codes.ts), so a caller can
 * tell "someone else holds it" from "GitHub could not be asked" without reading prose.
 */

/** How a command failed; decides the exit code and the MCP `isError` flag. */
export type FailureKind =
  /** A definite no: held by another session, closed issue, guard refusal, gate denial. */
  | 'refused'
  /** The request itself is wrong: bad reference, identity, stage, note, flag. */
  | 'usage'
  /**
   * GitHub could not be asked, or answered with an error, or the deadline passed. Seed
   * "Failure behaviour": never reported as held or as free.
   */
  | 'unverifiable'
  /** The local setup is missing: no token, an unreadable identity key or config file. */
  | 'setup';

/** A failure of a client command: a kind, a message for people and details for programs. */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly data: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A definite refusal (exit 1). */
export function refused(message: string, data: Record<string, unknown> = {}): ClientError {
  return new ClientError('refused', message, data);
}

/** A malformed request (exit 2). */
export function usageError(message: string, data: Record<string, unknown> = {}): ClientError {
  return new ClientError('usage', message, data);
}

/** GitHub could not confirm the facts (exit 3). */
export function unverifiable(
  message: string,
  data: Record<string, unknown> = {},
  cause?: unknown,
): ClientError {
  return new ClientError('unverifiable', message, data, { cause });
}

/** The local setup is incomplete (exit 4). */
export function setupError(message: string, data: Record<string, unknown> = {}): ClientError {
  return new ClientError('setup', message, data);
}
