import { ClientError } from '../core/client-error.js';
import type { CommandResult } from '../core/command-result.js';
import { claimsApiUrl } from '../io/app-url.js';
import { describeFailure } from '../io/describe-failure.js';
import { openDesk } from '../io/desk.js';
import type { ClientRuntime } from '../io/runtime.js';
import type { ClientCommand } from './commands.js';

/** How a command is run: by the CLI once, or by the MCP server per tool call. */
interface RunOptions {
  readonly runtime: ClientRuntime;
  /** `--token`; otherwise GITHUB_TOKEN or `gh auth token`. */
  readonly token?: string | undefined;
  /** Cancels the command early (an MCP client's cancellation). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs one command under the deadline (docs/agents.md, "Running it": 45 s, and every request
 * carries the deadline's signal) and turns every outcome into a CommandResult: a ClientError
 * keeps its kind; anything else, a passed deadline included, is unverifiable, because a
 * GitHub failure is never reported as held or as free.
 */
export async function runCommand(
  command: ClientCommand,
  input: unknown,
  options: RunOptions,
): Promise<CommandResult> {
  const { runtime } = options;
  const deadline = AbortSignal.timeout(runtime.deadlineMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  let stop: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([
      command.run(input, {
        desk: (deskOptions) => openDesk(runtime, { ...deskOptions, token: options.token, signal }),
        claimsApiUrl: () => claimsApiUrl(runtime.env),
      }),
      stopped,
    ]);
  } catch (error) {
    return failure(error, deadline, options.signal, runtime.deadlineMs, askedWhom(runtime));
  } finally {
    if (stop) signal.removeEventListener('abort', stop);
    // The race may leave `stopped` pending for ever; nothing waits on it after this.
    stopped.catch(() => undefined);
  }
}

/** Who a command was waiting for, for the deadline's message: GitHub, or the claims app. */
function askedWhom(runtime: ClientRuntime): string {
  try {
    return claimsApiUrl(runtime.env) === null ? 'GitHub' : 'the claims app';
  } catch {
    return 'GitHub';
  }
}

function failure(
  error: unknown,
  deadline: AbortSignal,
  outer: AbortSignal | undefined,
  deadlineMs: number,
  whom: string,
): CommandResult {
  if (error instanceof ClientError && (error.kind === 'usage' || error.kind === 'refused')) {
    return { status: error.kind, message: error.message, data: error.data };
  }
  const data = error instanceof ClientError ? error.data : {};
  if (deadline.aborted) {
    const seconds = Math.round(deadlineMs / 1000);
    const detail = error instanceof ClientError ? `: ${error.message}` : '';
    return {
      status: 'unverifiable',
      message: `the ${seconds} s deadline passed before ${whom} answered${detail}: retry; until it answers, nothing is known held or free`,
      data: { ...data, deadline: true },
    };
  }
  if (outer?.aborted) {
    return {
      status: 'unverifiable',
      message: `cancelled before ${whom} answered`,
      data: { ...data, cancelled: true },
    };
  }
  if (error instanceof ClientError) return { status: error.kind, message: error.message, data };
  return { status: 'unverifiable', message: describeFailure(error), data };
}
