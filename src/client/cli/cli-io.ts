import type { ClientRuntime } from '../io/runtime.js';

/** What the CLI reads and writes; a test passes its own. */
export interface CliIo {
  readonly runtime: ClientRuntime;
  /** The whole of stdin, or null when stdin is a terminal (nothing was piped). */
  readonly readStdin: () => Promise<string | null>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Serves MCP on stdio until the client goes away (`claim-warden mcp`). */
  readonly serveMcp: (options: {
    token?: string | undefined;
    staleAfter?: string | undefined;
  }) => Promise<void>;
}
