import { boardCookie, SESSION_COOKIE } from './board-cookie.js';
import type { BoardRequest } from './board-request.js';
import type { BoardSite } from './board-site.js';
import { GitHubAnswerError } from './github-json.js';
import { type BoardSession, openSession } from './session-cookie.js';
import type { Visibility } from './visible-repos.js';

/** Who a request comes from: a live session and what it may see, nobody, or unknown. */
export type SessionRead =
  | { kind: 'in'; session: BoardSession; cookie: string; visible: Visibility }
  | { kind: 'out' }
  | { kind: 'unverifiable' };

/**
 * The request's session (docs/protocol.md §14): its cookie opened, its record still live, and
 * the repositories its token may see. A store that does not answer throws (a 503).
 */
export async function readSession(site: BoardSite, request: BoardRequest): Promise<SessionRead> {
  const cookie = request.cookies.get(SESSION_COOKIE);
  const session = cookie ? openSession(site.secret, cookie, site.now()) : null;
  if (!cookie || !session) return { kind: 'out' };
  // A cookie whose session was signed out (here or on any replica) is no session: the
  // visitor gets what a visitor without one gets. A store that does not answer is a 503.
  if (!(await site.deps.sessions.isLive(session.id))) return { kind: 'out' };
  try {
    return { kind: 'in', session, cookie, visible: await site.visibility.get(session.token) };
  } catch (error) {
    // GitHub no longer takes the token (revoked, expired): the session is over.
    if (error instanceof GitHubAnswerError && error.status === 401) return { kind: 'out' };
    site.deps.log.warn({ err: error, login: session.login }, 'board visibility check failed');
    return { kind: 'unverifiable' };
  }
}

/** The headers of an answer to a visitor without a session: a stale cookie is cleared. */
export function signedOutHeaders(request: BoardRequest): Record<string, string> {
  return request.cookies.has(SESSION_COOKIE)
    ? { 'set-cookie': boardCookie(request, SESSION_COOKIE) }
    : {};
}
