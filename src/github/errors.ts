import type { IssueKey } from '../keys.js';

/** The HTTP status of an octokit RequestError, if it is one. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    const { status } = error as { status: unknown };
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

/**
 * Whether GitHub's answer says the issue is not where it was: 404 (deleted, or never there)
 * or 410 (deleted). One such answer is not proof: GitHub answers a transient 404 now and then
 * (replication lag, a token moments old), see docs/protocol.md §6.
 */
export function isGoneStatus(status: number | undefined): boolean {
  return status === 404 || status === 410;
}

/**
 * The thread could not be read whole. docs/protocol.md §6: nothing is written from partial
 * facts; the reconcile is retried with backoff.
 */
export class UnverifiableError extends Error {
  override readonly name = 'UnverifiableError';
  constructor(
    message: string,
    readonly key: IssueKey,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * GitHub answered 404 or 410 on the issue itself: it may be deleted or transferred away, or
 * the answer may be a transient one. The caller decides which (the reconcile asks twice).
 */
export class IssueGoneError extends Error {
  override readonly name = 'IssueGoneError';
  constructor(
    readonly key: IssueKey,
    readonly status?: number,
  ) {
    super(`issue ${key.owner}/${key.repo}#${key.number} is gone`);
  }
}
