import type { BoardRequest } from './board-request.js';
import type { BoardSite } from './board-site.js';
import { logoutToken } from './logout-token.js';
import { readSession, signedOutHeaders } from './read-session.js';
import { renderNotice } from './render-notice.js';
import { renderBoardPage } from './render-page.js';
import { signedInView } from './signed-in-view.js';

/**
 * `GET /claims` (docs/protocol.md §14): the board of what the signed-in user may see, the
 * sign-in page without a session, and nothing at all while visibility is unverifiable.
 */
export async function serveBoardPage(site: BoardSite, request: BoardRequest): Promise<true> {
  const { root, reply } = request;
  const who = await readSession(site, request);
  if (who.kind === 'out') {
    return reply.html(
      401,
      renderNotice({
        root,
        title: 'Claims board',
        text: 'Sign in with GitHub to see the claims of the repositories you can reach.',
        signIn: true,
      }),
      signedOutHeaders(request),
    );
  }
  if (who.kind === 'unverifiable') {
    // Fail closed: without a visibility answer nothing is shown.
    return reply.html(
      503,
      renderNotice({
        root,
        title: 'GitHub did not answer',
        text: 'The board could not check which repositories you may see. Reload the page in a moment.',
      }),
      { 'retry-after': '15' },
    );
  }
  const view = await signedInView(site, request, who);
  return reply.html(200, renderBoardPage(view, logoutToken(site.secret, who.cookie), root));
}
