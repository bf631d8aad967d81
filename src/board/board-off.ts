import type { BoardRequest } from './board-request.js';
import { escapeHtml } from './escape-html.js';
import { renderNotice } from './render-notice.js';

/** The 404 of every route while sign-in is not configured: the page names the settings. */
export function boardOff(request: BoardRequest): true {
  const { base, root } = request;
  return request.reply.html(
    404,
    renderNotice({
      root,
      title: 'The claims board is off',
      text: 'Sign-in with GitHub is not configured on this app.',
      html: `<p>To turn the board on, set <code>GITHUB_CLIENT_ID</code> and <code>GITHUB_CLIENT_SECRET</code> to the GitHub App's client ID and a client secret (the app's settings page, "Client secrets"), set its callback URL to <code>${escapeHtml(base)}/claims/callback</code> (or set <code>CLAIMS_PUBLIC_URL</code> behind a proxy), and restart the app.</p>`,
    }),
  );
}
