import { execFile } from 'node:child_process';
import { setupError } from '../core/client-error.js';
import type { ConfigEnv } from './config-dir.js';

/** Asks the GitHub CLI for its token for a host; null when it cannot say. */
export type GhTokenSource = (host: string, signal?: AbortSignal) => Promise<string | null>;

/** Where a token may come from, first match wins. */
interface TokenSources {
  /** `--token` on the command line. */
  readonly flag?: string | undefined;
  readonly env: ConfigEnv;
  readonly gh: GhTokenSource;
  /** The host for `gh auth token --hostname`. */
  readonly host: string;
  readonly signal?: AbortSignal;
}

/**
 * The GitHub token: `--token`, else `GITHUB_TOKEN`, else `gh auth token` (docs/agents.md,
 * "Running it"; an explicit flag wins). Without
 * one, a setup error says how to provide it; a token is never part of any message.
 */
export async function resolveToken(sources: TokenSources): Promise<string> {
  const flag = sources.flag?.trim();
  if (flag) return flag;
  const env = sources.env.GITHUB_TOKEN?.trim();
  if (env) return env;
  const gh = await sources.gh(sources.host, sources.signal);
  if (gh) return gh;
  throw setupError(
    'no GitHub token: set GITHUB_TOKEN, run `gh auth login`, or pass --token (a user token: claims are made by the account it belongs to)',
  );
}

/**
 * `gh auth token --hostname <host>`, run without a shell. Any failure (gh not installed, not
 * logged in, a hang past 10 s) yields null, so the caller reports the missing token once.
 */
export function ghAuthToken(env: ConfigEnv): GhTokenSource {
  return (host, signal) =>
    new Promise((resolve) => {
      execFile(
        'gh',
        ['auth', 'token', '--hostname', host],
        {
          env: env as NodeJS.ProcessEnv,
          timeout: 10_000,
          windowsHide: true,
          ...(signal ? { signal } : {}),
        },
        (error, stdout) => {
          const token = String(stdout).trim();
          resolve(error || token === '' || /\s/.test(token) ? null : token);
        },
      );
    });
}
