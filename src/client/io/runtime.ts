import { hostname } from 'node:os';
import type { ConfigEnv } from './config-dir.js';
import { type GhTokenSource, ghAuthToken } from './resolve-token.js';

/** Seed "Failure behaviour": every operation runs under a 45-second deadline. */
const DEFAULT_DEADLINE_MS = 45_000;

/** The stale window when neither `--stale-after` nor the repository says (docs/protocol.md §3). */
export const DEFAULT_STALE_AFTER = '6h';

/**
 * Everything the client takes from its surroundings, in one place (probot's
 * readEnvOptions habit), so tests pass their own clock, hostname, environment and HTTP.
 */
export interface ClientRuntime {
  readonly env: ConfigEnv;
  readonly now: () => Date;
  readonly hostname: () => string;
  readonly deadlineMs: number;
  readonly gh: GhTokenSource;
  /** The fetch octokit uses; the global one when absent. Tests interpose on it. */
  readonly fetch?: typeof globalThis.fetch;
  readonly platform?: NodeJS.Platform;
}

/** The runtime of a real process: its environment, clock, hostname and `gh`. */
export function defaultRuntime(env: ConfigEnv = process.env): ClientRuntime {
  return {
    env,
    now: () => new Date(),
    hostname,
    deadlineMs: DEFAULT_DEADLINE_MS,
    gh: ghAuthToken(env),
  };
}
