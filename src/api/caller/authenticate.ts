import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ProbotOctokit } from 'probot';
import { callerOctokit } from '../../github/caller-octokit.js';
import { ApiError, unverifiable } from '../answers/api-error.js';
import {
  type CallerGitHub,
  callerGitHub,
  isGitHubFailure,
  messageOf,
  retryAfterOf,
} from './caller-github.js';
import type { TtlCache } from './ttl-cache.js';

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

/**
 * docs/protocol.md §8 "Caller": the login of `GET /user` with the request's bearer token,
 * cached under a hash of the token. A missing or refused token is 401 UNAUTHENTICATED; an
 * installation token, which `GET /user` refuses, is 401 saying that such bots post claim
 * comments directly. GitHub failing is 503.
 */
export async function authenticate(
  req: IncomingMessage,
  deps: { baseUrl: string; logins: TtlCache<string>; now: () => Date },
): Promise<Caller> {
  const token = bearerToken(req);
  const tokenHash = tokenHashOf(token);
  const github = callerGitHub(deps.baseUrl, token);
  const login = await deps.logins.get(tokenHash, async () => {
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
        retryAfterOf(answer.headers, deps.now().getTime()),
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
    throw new ApiError(
      401,
      'UNAUTHENTICATED',
      'GitHub refused the token: send a valid personal access token or GitHub user token as "Authorization: Bearer <token>"',
    );
  });
  return { login, tokenHash, github, octokit: callerOctokit(deps.baseUrl, token) };
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
