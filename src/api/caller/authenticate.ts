import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ProbotOctokit } from 'probot';
import { callerOctokit } from '../../github/caller-octokit.js';
import { traceCalls } from '../../telemetry/trace-calls.js';
import { ApiError, unverifiable } from '../answers/api-error.js';
import {
  type CallerGitHub,
  callerGitHub,
  isGitHubFailure,
  messageOf,
  retryAfterOf,
} from './caller-github.js';
import type { IdentityLookups } from './identity-lookups.js';
import type { TtlCache } from './ttl-cache.js';

/** The 401 for a token GitHub refused (`GET /user` 401), by every route that asks GitHub. */
export const TOKEN_REFUSED =
  'GitHub refused the token: send a valid personal access token or GitHub user token as "Authorization: Bearer <token>"';

/** Who is calling: the login GitHub names for the token, and GitHub as that caller. */
export interface Caller {
  readonly login: string;
  /** A hash of the token: the key of every per-caller cache (the token itself is kept nowhere). */
  readonly tokenHash: string;
  /** GitHub's reads as the caller. */
  readonly github: CallerGitHub;
  /** The executor's `own` writer: the caller's claim-comment writes, with the caller's token. */
  readonly octokit: ProbotOctokit;
}

/** What authenticating a caller needs of the API's dependencies. */
interface AuthenticateDeps {
  readonly baseUrl: string;
  readonly logins: TtlCache<string>;
  /** Tokens GitHub refused, by hash, with the 401's message: kept briefly (a minute). */
  readonly refusedTokens: TtlCache<string>;
  readonly lookups: IdentityLookups;
  readonly now: () => Date;
}

/**
 * docs/protocol.md §8 "Caller": the login of `GET /user` with the request's bearer token,
 * cached under a hash of the token. A missing or refused token is 401 UNAUTHENTICATED; an
 * installation token, which `GET /user` refuses, is 401 saying that such bots post claim
 * comments directly. GitHub failing is 503. A token GitHub refused is answered 401 again
 * without asking for a while, and a token not known yet is looked up only within the bounds
 * of `lookups` (docs/security.md "Limits").
 */
export async function authenticate(req: IncomingMessage, deps: AuthenticateDeps): Promise<Caller> {
  const token = bearerToken(req);
  const tokenHash = tokenHashOf(token);
  const refusal = deps.refusedTokens.peek(tokenHash);
  if (refusal !== undefined) throw new ApiError(401, 'UNAUTHENTICATED', refusal);
  const github = callerGitHub(deps.baseUrl, token);
  const login = await deps.logins.get(tokenHash, async () => {
    await deps.lookups.admit(req);
    try {
      return await lookUp(github, token, deps.now);
    } catch (error) {
      // A definite 401 is kept (briefly); a failure (503) never is.
      if (error instanceof ApiError && error.status === 401) {
        deps.refusedTokens.set(tokenHash, error.message);
      }
      throw error;
    }
  });
  const octokit = callerOctokit(deps.baseUrl, token);
  // Its requests are spans of the API call's trace, as the app's are (docs/operations.md "Traces").
  traceCalls(octokit, 'caller');
  return { login, tokenHash, github, octokit };
}

/** The login GitHub names for the token (`GET /user`), or the API's error for its answer. */
async function lookUp(github: CallerGitHub, token: string, now: () => Date): Promise<string> {
  let answer: Awaited<ReturnType<CallerGitHub>>;
  try {
    answer = await github('GET', '/user');
  } catch {
    throw unverifiable('GitHub did not answer GET /user');
  }
  const login = (answer.data as { login?: unknown } | null)?.login;
  if (answer.status === 200 && typeof login === 'string') return login;
  if (isGitHubFailure(answer.status, answer.headers, answer.data)) {
    throw unverifiable(
      `GitHub failed GET /user (${answer.status})`,
      retryAfterOf(answer.headers, now().getTime()),
    );
  }
  // GitHub refuses an installation token on GET /user with this 403; any other 403 (or
  // 401) is a refused token, said as such.
  if (
    token.startsWith('ghs_') ||
    (answer.status === 403 && /not accessible by integration/i.test(messageOf(answer.data)))
  ) {
    throw new ApiError(
      401,
      'UNAUTHENTICATED',
      'a GitHub App installation token cannot name its account (GET /user refuses it): a bot posts its claim comment directly and the app enforces it, or call with a user token',
    );
  }
  throw new ApiError(401, 'UNAUTHENTICATED', TOKEN_REFUSED);
}

/** The key of every per-caller record: a hash of the token, never the token itself. */
export function tokenHashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token of `Authorization: Bearer T` (or GitHub's `token T`); 401 when there is none. */
export function bearerToken(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  const match = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new ApiError(
      401,
      'UNAUTHENTICATED',
      'send your GitHub token as "Authorization: Bearer <token>"',
    );
  }
  return match[1]!;
}
