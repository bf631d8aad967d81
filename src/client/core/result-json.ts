import type { CommandResult } from './command-result.js';
import { exitCode } from './exit-codes.js';

/**
 * The JSON form of a result, the same for `--json` and MCP's structured content: the status,
 * its exit code and the message, then the details.
 */
export function resultJson(result: CommandResult): Record<string, unknown> {
  return {
    status: result.status,
    exitCode: exitCode(result.status),
    message: result.message,
    ...result.data,
  };
}
