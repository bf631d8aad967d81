import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { boardCookie, SESSION_COOKIE } from './board-cookie.js';
import type { BoardRequest } from './board-request.js';
import type { BoardSite } from './board-site.js';
import type { OAuthEndpoints } from './exchange-code.js';
import { GitHubAnswerError } from './github-json.js';
import { logoutToken } from './logout-token.js';
import { renderNotice } from './render-notice.js';
import { revokeToken } from './revoke-token.js';
import { openSession } from './session-cookie.js';

/**
 * `POST /claims/logout` (docs/protocol.md §14): a form from a page served to this session
 * ends the session on every replica, revokes its token and clears the cookie.
 */
export async function signOut(
  site: BoardSite,
  request: BoardRequest,
  endpoints: OAuthEndpoints,
): Promise<true> {
  const { reply } = request;
  const form = new URLSearchParams(await readBody(request.req, 4096));
  const cookie = request.cookies.get(SESSION_COOKIE);
  // CSRF: only a page served to this session knows the token (and SameSite=Lax keeps the
  // cookie off another site's post).
  if (!cookie || !sameToken(form.get('token'), logoutToken(site.secret, cookie))) {
    return reply.html(
      403,
      renderNotice({
        root: request.root,
        title: 'Sign-out refused',
        text: 'The sign-out did not come from this board page. Sign out from the board itself.',
      }),
    );
  }
  await endSession(site, endpoints, cookie);
  return reply.redirect(303, `${request.base}/claims`, boardCookie(request, SESSION_COOKIE));
}

/** Ends the cookie's session and revokes its token, if the session was still live. */
async function endSession(site: BoardSite, endpoints: OAuthEndpoints, cookie: string) {
  const { log, sessions } = site.deps;
  const session = openSession(site.secret, cookie, site.now());
  // Ending the record ends every copy of the cookie on every replica; only the sign-out
  // that ended it revokes the token, so a repeated post revokes nothing twice.
  if (!session || !(await sessions.end(session.id))) return;
  log.info({ login: session.login }, 'board sign-out');
  try {
    if (!(await revokeToken(endpoints, session.token, site.fetch))) {
      log.info({ login: session.login }, 'board sign-out: GitHub no longer knew the token');
    }
  } catch (error) {
    // The session is over all the same; the token expires with GitHub's 8 hours.
    log.warn(
      { login: session.login, reason: revokeFailure(error) },
      'board sign-out: GitHub did not revoke the user token',
    );
  }
}

/** Whether a posted form token is the expected one, compared in constant time. */
function sameToken(posted: string | null, expected: string): boolean {
  const a = Buffer.from(posted ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a revocation failed, for the log: GitHub's status or the network error's message. */
function revokeFailure(error: unknown): string {
  if (error instanceof GitHubAnswerError) return error.message;
  return error instanceof Error ? error.message : 'unknown error';
}

/** A request body, at most `limit` bytes (a sign-out form is tiny). */
async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
