import { boardCookie, STATE_COOKIE } from './board-cookie.js';
import type { BoardRequest } from './board-request.js';
import type { BoardSite } from './board-site.js';
import type { OAuthEndpoints } from './exchange-code.js';
import { newOAuthState, STATE_TTL_MS } from './oauth-state.js';

/**
 * `GET /claims/login`: the start of GitHub's OAuth web flow, a redirect to GitHub's
 * authorize page with a fresh state this browser alone keeps in a cookie.
 */
export async function beginSignIn(
  site: BoardSite,
  request: BoardRequest,
  endpoints: OAuthEndpoints,
): Promise<true> {
  const { state, cookie } = newOAuthState(site.secret, site.now());
  const authorize = new URL(`${site.webUrl}/login/oauth/authorize`);
  authorize.searchParams.set('client_id', endpoints.clientId);
  authorize.searchParams.set('redirect_uri', `${request.base}/claims/callback`);
  authorize.searchParams.set('state', state);
  return request.reply.redirect(
    302,
    authorize.toString(),
    boardCookie(request, STATE_COOKIE, cookie, STATE_TTL_MS / 1000),
  );
}
