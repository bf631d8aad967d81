import { escapeHtml as e } from './escape-html.js';
import { pageShell } from './render-page.js';

/**
 * A small board page with a heading, a message and optional actions: the sign-in page, the
 * page naming missing settings, a failed sign-in. `html` parts are trusted markup; `text`
 * is escaped.
 */
export function renderNotice(notice: {
  root: string;
  title: string;
  text: string;
  html?: string;
  signIn?: boolean;
}): string {
  const action = notice.signIn
    ? '<p><a class="btn btn-primary" href="claims/login">Sign in with GitHub</a></p>'
    : '';
  return pageShell(
    `${notice.title} · claim-warden`,
    `<main class="notice">
  <h1>${e(notice.title)}</h1>
  <p>${e(notice.text)}</p>
  ${notice.html ?? ''}
  ${action}
</main>`,
    { root: notice.root },
  );
}
