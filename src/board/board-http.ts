import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import type { BoardSessions } from '../store/board-sessions.js';
import type { BoardSource } from './board-source.js';
import { BOARD_STYLES } from './board-styles.js';
import { boardView, readFilters } from './board-view.js';
import { CLIENT_SCRIPT } from './client-script.js';
import { cookieHeader, readCookies } from './cookies.js';
import { escapeHtml } from './escape-html.js';
import { exchangeCode, type OAuthEndpoints } from './exchange-code.js';
import { GitHubAnswerError } from './github-json.js';
import { logoutToken } from './logout-token.js';
import { checkOAuthState, newOAuthState, STATE_TTL_MS } from './oauth-state.js';
import { renderNotice } from './render-notice.js';
import { renderBoardPage } from './render-page.js';
import { revokeToken } from './revoke-token.js';
import {
  type BoardSession,
  newSessionId,
  openSession,
  SESSION_TTL_MS,
  sealSession,
} from './session-cookie.js';
import { type Visibility, VisibleReposCache } from './visible-repos.js';

/** The settings the board reads. */
export type BoardSettings = Pick<
  Settings,
  'boardOAuth' | 'publicUrl' | 'sessionSecret' | 'gheHost' | 'gheProtocol' | 'githubBaseUrl'
>;

/** What the board's HTTP routes need. */
export interface BoardDeps {
  readonly settings: BoardSettings;
  readonly source: BoardSource;
  /** The live sessions, shared by every replica: sign-out ends one for every cookie copy. */
  readonly sessions: BoardSessions;
  readonly log: Logger;
  readonly now?: () => Date;
  /** GitHub's HTTP client (tests and benchmarks pass their own). */
  readonly fetch?: typeof fetch;
}

/** A Probot `addHandler` handler: answers what it serves, false for every other path. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const SESSION_COOKIE = 'cw_board_session';
const STATE_COOKIE = 'cw_board_state';

/**
 * The claims board's routes (docs/protocol.md §14): `GET /claims` (the page), `GET
 * /claims/data.json` (its refresh), `GET /claims/login` and `/claims/callback` (GitHub's
 * OAuth web flow), `POST /claims/logout`, and the stylesheet and script under
 * `/claims/assets/`. Without GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET every route but the
 * assets answers 404 with a page naming them.
 */
export function createBoardHandler(deps: BoardDeps): HttpHandler {
  const { settings, log } = deps;
  const now = deps.now ?? (() => new Date());
  const fetchImpl = deps.fetch ?? fetch;
  const webUrl = settings.gheHost
    ? `${settings.gheProtocol}://${settings.gheHost}`
    : 'https://github.com';
  const apiUrl = settings.githubBaseUrl ?? 'https://api.github.com';
  const visibility = new VisibleReposCache(apiUrl, now, fetchImpl);
  const secret = settings.sessionSecret;
  // Avatars come from GitHub's avatar host, or from the GHES host itself.
  const imgSources = ['https://avatars.githubusercontent.com', new URL(webUrl).origin];

  const handle: HttpHandler = async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://board.invalid');
    const path = url.pathname;
    if (path !== '/claims' && !path.startsWith('/claims/')) return false;
    const base = baseUrl(req, settings.publicUrl);
    const root = `${new URL(base).pathname.replace(/\/$/, '')}/`;
    const cookiePath = `${root}claims`;
    const secure = base.startsWith('https:');
    const method = req.method ?? 'GET';

    const send = (
      status: number,
      type: string,
      body: string,
      headers: Record<string, string | string[]> = {},
    ) => {
      res.writeHead(status, {
        'content-type': type,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
        'content-security-policy': [
          "default-src 'none'",
          "script-src 'self'",
          "style-src 'self'",
          `img-src 'self' ${[...new Set(imgSources)].join(' ')}`,
          "connect-src 'self'",
          "form-action 'self'",
          "base-uri 'self'",
          "frame-ancestors 'none'",
        ].join('; '),
        ...headers,
      });
      res.end(body);
      return true;
    };
    const html = (status: number, body: string, headers?: Record<string, string | string[]>) =>
      send(status, 'text/html; charset=utf-8', body, headers);
    const json = (status: number, body: unknown, headers?: Record<string, string | string[]>) =>
      send(status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
    // The sign-in and sign-out steps: a redirect that sets or clears a cookie, never cached.
    const redirect = (status: 302 | 303, location: string, setCookie: string | string[]) => {
      res.writeHead(status, { location, 'cache-control': 'no-store', 'set-cookie': setCookie });
      res.end();
      return true;
    };
    const clearSession = cookieHeader(SESSION_COOKIE, '', {
      path: cookiePath,
      maxAgeSeconds: 0,
      secure,
    });

    if (path === '/claims/assets/board.css' || path === '/claims/assets/board.js') {
      if (method !== 'GET' && method !== 'HEAD') return html(405, '', { allow: 'GET' });
      const css = path.endsWith('.css');
      return send(
        200,
        css ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
        css ? BOARD_STYLES : CLIENT_SCRIPT,
        {
          'cache-control': 'public, max-age=300',
        },
      );
    }

    const oauth = settings.boardOAuth;
    if (!oauth) {
      return html(
        404,
        renderNotice({
          root,
          title: 'The claims board is off',
          text: 'Sign-in with GitHub is not configured on this app.',
          html: `<p>To turn the board on, set <code>GITHUB_CLIENT_ID</code> and <code>GITHUB_CLIENT_SECRET</code> to the GitHub App's client ID and a client secret (the app's settings page, "Client secrets"), set its callback URL to <code>${escapeHtml(base)}/claims/callback</code> (or set <code>CLAIMS_PUBLIC_URL</code> behind a proxy), and restart the app.</p>`,
        }),
      );
    }
    const endpoints: OAuthEndpoints = { webUrl, apiUrl, ...oauth };
    const callback = `${base}/claims/callback`;
    const cookies = readCookies(req);

    const signedIn = async (): Promise<
      | { kind: 'in'; session: BoardSession; cookie: string; visible: Visibility }
      | { kind: 'out' }
      | { kind: 'unverifiable' }
    > => {
      const cookie = cookies.get(SESSION_COOKIE);
      const session = cookie ? openSession(secret, cookie, now()) : null;
      if (!cookie || !session) return { kind: 'out' };
      // A cookie whose session was signed out (here or on any replica) is no session: the
      // visitor gets what a visitor without one gets. A store that does not answer is a 503.
      if (!(await deps.sessions.isLive(session.id))) return { kind: 'out' };
      try {
        return { kind: 'in', session, cookie, visible: await visibility.get(session.token) };
      } catch (error) {
        // GitHub no longer takes the token (revoked, expired): the session is over.
        if (error instanceof GitHubAnswerError && error.status === 401) return { kind: 'out' };
        log.warn({ err: error, login: session.login }, 'board visibility check failed');
        return { kind: 'unverifiable' };
      }
    };

    if (path === '/claims' || path === '/claims/data.json') {
      if (method !== 'GET' && method !== 'HEAD') return html(405, '', { allow: 'GET' });
      const data = path.endsWith('.json');
      const who = await signedIn();
      if (who.kind === 'out') {
        const headers: Record<string, string> = cookies.has(SESSION_COOKIE)
          ? { 'set-cookie': clearSession }
          : {};
        if (data)
          return json(
            401,
            { error: { code: 'UNAUTHENTICATED', message: 'sign in at /claims first' } },
            headers,
          );
        return html(
          401,
          renderNotice({
            root,
            title: 'Claims board',
            text: 'Sign in with GitHub to see the claims of the repositories you can reach.',
            signIn: true,
          }),
          headers,
        );
      }
      if (who.kind === 'unverifiable') {
        // Fail closed: without a visibility answer nothing is shown.
        if (data)
          return json(
            503,
            {
              error: {
                code: 'UNVERIFIABLE',
                message: 'GitHub did not answer the visibility check; try again shortly',
              },
            },
            { 'retry-after': '15' },
          );
        return html(
          503,
          renderNotice({
            root,
            title: 'GitHub did not answer',
            text: 'The board could not check which repositories you may see. Reload the page in a moment.',
          }),
          { 'retry-after': '15' },
        );
      }
      const user = { login: who.session.login, avatarUrl: who.session.avatarUrl };
      const view = await boardView(
        deps.source,
        who.visible,
        user,
        readFilters(url.searchParams, who.visible),
        now(),
      );
      if (data) return json(200, view);
      return html(200, renderBoardPage(view, logoutToken(secret, who.cookie), root));
    }

    if (path === '/claims/login') {
      if (method !== 'GET') return html(405, '', { allow: 'GET' });
      const { state, cookie } = newOAuthState(secret, now());
      const authorize = new URL(`${webUrl}/login/oauth/authorize`);
      authorize.searchParams.set('client_id', oauth.clientId);
      authorize.searchParams.set('redirect_uri', callback);
      authorize.searchParams.set('state', state);
      return redirect(
        302,
        authorize.toString(),
        cookieHeader(STATE_COOKIE, cookie, {
          path: cookiePath,
          maxAgeSeconds: STATE_TTL_MS / 1000,
          secure,
        }),
      );
    }

    if (path === '/claims/callback') {
      if (method !== 'GET') return html(405, '', { allow: 'GET' });
      const clearState = cookieHeader(STATE_COOKIE, '', {
        path: cookiePath,
        maxAgeSeconds: 0,
        secure,
      });
      const failed = (text: string) =>
        html(400, renderNotice({ root, title: 'Sign-in failed', text, signIn: true }), {
          'set-cookie': clearState,
        });
      if (
        !checkOAuthState(secret, cookies.get(STATE_COOKIE), url.searchParams.get('state'), now())
      ) {
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
      let user: Awaited<ReturnType<typeof exchangeCode>>;
      try {
        user = await exchangeCode(endpoints, code, callback, fetchImpl);
      } catch (error) {
        log.warn({ err: error }, 'board sign-in failed at the code exchange');
        return failed(
          `${error instanceof Error ? error.message : 'The sign-in failed'}. Start again.`,
        );
      }
      // The record first: a cookie is never handed out for a session the store does not hold.
      const id = newSessionId();
      await deps.sessions.start(id, SESSION_TTL_MS);
      const session = sealSession(secret, {
        id,
        ...user,
        expiresAt: now().getTime() + SESSION_TTL_MS,
      });
      log.info({ login: user.login }, 'board sign-in');
      return redirect(303, `${base}/claims`, [
        clearState,
        cookieHeader(SESSION_COOKIE, session, {
          path: cookiePath,
          maxAgeSeconds: SESSION_TTL_MS / 1000,
          secure,
        }),
      ]);
    }

    if (path === '/claims/logout') {
      if (method !== 'POST') return html(405, '', { allow: 'POST' });
      const form = new URLSearchParams(await readBody(req, 4096));
      const cookie = cookies.get(SESSION_COOKIE);
      // CSRF: only a page served to this session knows the token (and SameSite=Lax keeps the
      // cookie off another site's post).
      if (!cookie || !sameToken(form.get('token'), logoutToken(secret, cookie))) {
        return html(
          403,
          renderNotice({
            root,
            title: 'Sign-out refused',
            text: 'The sign-out did not come from this board page. Sign out from the board itself.',
          }),
        );
      }
      const session = openSession(secret, cookie, now());
      // Ending the record ends every copy of the cookie on every replica; only the sign-out
      // that ended it revokes the token, so a repeated post revokes nothing twice.
      if (session && (await deps.sessions.end(session.id))) {
        log.info({ login: session.login }, 'board sign-out');
        try {
          if (!(await revokeToken(endpoints, session.token, fetchImpl))) {
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
      return redirect(303, `${base}/claims`, clearSession);
    }

    return html(
      404,
      renderNotice({
        root,
        title: 'Not found',
        text: 'The board has no page here.',
        html: '<p><a href="claims">Go to the claims board</a></p>',
      }),
    );
  };

  // A store that does not answer (Redis away) is a 503 the user can retry, not Probot's 500.
  return async (req, res) => {
    try {
      return await handle(req, res);
    } catch (error) {
      log.error({ err: error, path: req.url?.split('?')[0] }, 'board request failed');
      if (!res.headersSent) {
        res.writeHead(503, {
          'content-type': 'text/plain; charset=utf-8',
          'retry-after': '15',
          'cache-control': 'no-store',
        });
        res.end('The claims board could not read its store; try again shortly.\n');
      } else {
        res.end();
      }
      return true;
    }
  };
}

/** The app's address as the browser used it: CLAIMS_PUBLIC_URL, else the request's host. */
function baseUrl(req: IncomingMessage, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    ?.trim();
  const proto = forwarded === 'https' ? 'https' : 'http';
  return `${proto}://${req.headers.host ?? 'localhost'}`;
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
