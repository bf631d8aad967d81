import type { FailureKind } from './client-error.js';

/** How a command ended: `ok`, or the kind of its failure. */
export type ResultStatus = 'ok' | FailureKind;

/** What every command returns, to the CLI and to MCP alike. */
export interface CommandResult {
  readonly status: ResultStatus;
  /** For people: one or more lines. */
  readonly message: string;
  /** For programs: JSON-safe details (the claim, the holder, verdicts, …). */
  readonly data: Readonly<Record<string, unknown>>;
}

/** A successful result. */
export function ok(message: string, data: Record<string, unknown> = {}): CommandResult {
  return { status: 'ok', message, data };
}
