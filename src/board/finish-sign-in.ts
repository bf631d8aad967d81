import { boardCookie, SESSION_COOKIE, STATE_COOKIE } from './board-cookie.js';
import type { BoardRequest } from './board-request.js';
import type { BoardSite } from './board-site.js';
import { exchangeCode, type OAuthEndpoints, type SignedInUser } from './exchange-code.js';
import { checkOAuthState } from './oauth-state.js';
import { renderNotice } from './render-notice.js';
import { newSessionId, SESSION_TTL_MS, sealSession } from './session-cookie.js';

/**
 * `GET /claims/callback`: GitHub's answer to the sign-in. The state must be the one this
 * browser was given; the code becomes a token, the token a live session and its cookie.
 */
export async function finishSignIn(
  site: BoardSite,
  request: BoardRequest,
  endpoints: OAuthEndpoints,
): Promise<true> {
  const { url, root, reply } = request;
  const { log } = site.deps;
  const clearState = boardCookie(request, STATE_COOKIE);
  const failed = (text: string) =>
    reply.html(400, renderNotice({ root, title: 'Sign-in failed', text, signIn: true }), {
      'set-cookie': clearState,
    });
  const posted = url.searchParams.get('state');
  if (!checkOAuthState(site.secret, request.cookies.get(STATE_COOKIE), posted, site.now())) {
    log.warn('board sign-in refused: state does not match this browser');
    return failed(
      'This sign-in was not started in this browser, or it took longer than 10 minutes. Start again.',
    );
  }
  const code = url.searchParams.get('code');
  if (!code)
    return failed(
      `GitHub did not approve the sign-in (${url.searchParams.get('error') ?? 'no code'}). Start again.`,
    );
  let user: SignedInUser;
  try {
    user = await exchangeCode(endpoints, code, `${request.base}/claims/callback`, site.fetch);
  } catch (error) {
    log.warn({ err: error }, 'board sign-in failed at the code exchange');
    return failed(`${error instanceof Error ? error.message : 'The sign-in failed'}. Start again.`);
  }
  // The record first: a cookie is never handed out for a session the store does not hold.
  const id = newSessionId();
  await site.deps.sessions.start(id, SESSION_TTL_MS);
  const expiresAt = site.now().getTime() + SESSION_TTL_MS;
  const session = sealSession(site.secret, { id, ...user, expiresAt });
  log.info({ login: user.login }, 'board sign-in');
  return reply.redirect(303, `${request.base}/claims`, [
    clearState,
    boardCookie(request, SESSION_COOKIE, session, SESSION_TTL_MS / 1000),
  ]);
}
