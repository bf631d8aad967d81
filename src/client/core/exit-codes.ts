import type { ResultStatus } from './command-result.js';

/**
 * The documented exit codes (docs/agents.md). One code per kind of outcome, the same for
 * every command, so a script can branch on them; `check` denies on any code but 0.
 */
export const EXIT_CODES: Readonly<Record<ResultStatus, number>> = {
  /** Done: claimed, resumed, updated, released, reported holding; the gate allows. */
  ok: 0,
  /** A definite no: another session holds it, the issue is closed, the guard refused, the gate denies. */
  refused: 1,
  /** The command line or tool input is wrong. */
  usage: 2,
  /** GitHub could not be asked or did not answer in time: nothing is known, nothing assumed. */
  unverifiable: 3,
  /** The local setup is incomplete: no token, or the identity key cannot be read or made. */
  setup: 4,
};

/** The exit code of a result status. */
export function exitCode(status: ResultStatus): number {
  return EXIT_CODES[status];
}
