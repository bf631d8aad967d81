/**
 * GitHub's OAuth web flow for a GitHub App's user tokens, on the web host (not under
 * `/api/v3`): `GET /login/oauth/authorize` shows an "Authorize" page, its form approves and
 * redirects to `redirect_uri?code=…&state=…`, and `POST /login/oauth/access_token` exchanges
 * a code once for a `ghu_` user token. As on GitHub, the exchange answers 200 with an `error`
 * field for a bad code or client secret, and JSON only when asked (`Accept: application/json`).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type Reply, type Route, type RouteContext, route } from './router.js';
import { HttpError, type State } from './state.js';

/** The app's OAuth credentials as the fake checks them. */
export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

interface PendingCode {
  readonly login: string;
  readonly redirectUri: string;
  readonly expiresAt: number;
}

/** A code is good for 10 minutes, once (GitHub's rule). */
const CODE_TTL_MS = 10 * 60_000;

const escapeText = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A user token the fake issued or revoked, and whose it is. */
export interface UserTokenRecord {
  readonly login: string;
  readonly token: string;
}

/** The web-host half of the fake (the authorize page and the code exchange), and revocation. */
export class FakeOAuth {
  private readonly codes = new Map<string, PendingCode>();
  /** Every user token the code exchange gave, in order. */
  readonly issued: UserTokenRecord[] = [];
  /** Every user token revoked through `DELETE /applications/{client_id}/token`, in order. */
  readonly revocations: UserTokenRecord[] = [];

  constructor(
    private readonly state: State,
    readonly client: OAuthClient,
    private readonly appName: string,
    private readonly now: () => Date,
    /** Registers a user token so the API accepts it for `login`. */
    private readonly issueUserToken: (login: string) => string,
    /** Forgets a user token (the API then answers 401); its login, or undefined if unknown. */
    private readonly revokeUserToken: (token: string) => string | undefined,
  ) {}

  /** The API routes of the flow (under `/api/v3`): revoking a user token. */
  routes(): Route[] {
    return [route('DELETE', '/applications/:client_id/token', (ctx) => this.revoke(ctx))];
  }

  /**
   * GitHub's "Delete an app token": Basic authentication with the client id and secret (the
   * id must be the path's), the token in the body (its shape is checked against GitHub's REST
   * description before this runs); 204 once revoked, 404 for a token it does not know.
   */
  private revoke(ctx: RouteContext): Reply {
    const basic = /^basic\s+(\S+)$/i.exec(String(ctx.headers.authorization ?? ''));
    const [id, ...secret] = Buffer.from(basic?.[1] ?? '', 'base64')
      .toString('utf8')
      .split(':');
    if (
      !basic ||
      id !== this.client.clientId ||
      secret.join(':') !== this.client.clientSecret ||
      ctx.params.client_id !== this.client.clientId
    ) {
      throw new HttpError(401, 'Bad credentials');
    }
    const token = String((ctx.body as { access_token?: unknown }).access_token);
    const login = this.revokeUserToken(token);
    if (!login) throw new HttpError(404, 'Not Found');
    this.revocations.push({ login, token });
    return { status: 204 };
  }

  /** Answers a web-host request, or undefined when the path is not one of the flow's. */
  handle(
    method: string,
    path: string,
    query: URLSearchParams,
    text: string,
    headers: IncomingHttpHeaders,
  ): Reply | undefined {
    if (path === '/login/oauth/authorize' && method === 'GET') return this.authorizePage(query);
    if (path === '/login/oauth/authorize' && method === 'POST') {
      return this.approve(new URLSearchParams(text));
    }
    if (path === '/login/oauth/access_token' && method === 'POST') {
      return this.exchange(parseForm(text, headers), headers);
    }
    return undefined;
  }

  private authorizePage(query: URLSearchParams): Reply {
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    if (clientId !== this.client.clientId) return page(404, '<h1>404</h1><p>Not Found</p>');
    if (!/^https?:\/\//.test(redirectUri)) {
      return page(400, '<h1>The redirect_uri is not valid</h1>');
    }
    const hidden = (name: string, value: string) =>
      `<input type="hidden" name="${name}" value="${escapeText(value)}">`;
    return page(
      200,
      `<h1>Authorize ${escapeText(this.appName)}</h1>
<form method="post" action="/login/oauth/authorize">
${hidden('client_id', clientId)}${hidden('redirect_uri', redirectUri)}${hidden('state', query.get('state') ?? '')}
<label>Signed in as <input name="login" id="login" autocomplete="username"></label>
<button type="submit" id="authorize">Authorize ${escapeText(this.appName)}</button>
</form>`,
    );
  }

  private approve(form: URLSearchParams): Reply {
    const login = form.get('login') ?? '';
    if (form.get('client_id') !== this.client.clientId) return page(404, '<h1>404</h1>');
    if (!this.state.users.has(login.toLowerCase())) {
      return page(401, '<h1>Incorrect username or password.</h1>');
    }
    const code = randomBytes(10).toString('hex');
    const redirectUri = form.get('redirect_uri') ?? '';
    this.codes.set(code, {
      login: this.state.user(login).login,
      redirectUri,
      expiresAt: this.now().getTime() + CODE_TTL_MS,
    });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    const state = form.get('state');
    if (state) target.searchParams.set('state', state);
    return { status: 302, raw: '', headers: { location: target.toString() } };
  }

  private exchange(form: URLSearchParams, headers: IncomingHttpHeaders): Reply {
    const answer = (body: Record<string, string>): Reply =>
      /application\/json/.test(String(headers.accept ?? ''))
        ? { status: 200, body }
        : {
            status: 200,
            raw: new URLSearchParams(body).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          };
    const error = (code: string, description: string) =>
      answer({
        error: code,
        error_description: description,
        error_uri: `https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#${code.replace(/_/g, '-')}`,
      });
    if (
      form.get('client_id') !== this.client.clientId ||
      form.get('client_secret') !== this.client.clientSecret
    ) {
      return error(
        'incorrect_client_credentials',
        'The client_id and/or client_secret passed are incorrect.',
      );
    }
    const code = form.get('code') ?? '';
    const pending = this.codes.get(code);
    this.codes.delete(code);
    if (!pending || pending.expiresAt <= this.now().getTime()) {
      return error('bad_verification_code', 'The code passed is incorrect or expired.');
    }
    const redirectUri = form.get('redirect_uri');
    if (redirectUri && redirectUri !== pending.redirectUri) {
      return error(
        'redirect_uri_mismatch',
        'The redirect_uri MUST match the registered callback URL for this application.',
      );
    }
    const token = this.issueUserToken(pending.login);
    this.issued.push({ login: pending.login, token });
    return answer({
      access_token: token,
      token_type: 'bearer',
      scope: '',
    });
  }
}

/** The exchange's parameters: GitHub takes a JSON body, a form body, or the query. */
function parseForm(text: string, headers: IncomingHttpHeaders): URLSearchParams {
  if (/application\/json/.test(String(headers['content-type'] ?? ''))) {
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      return new URLSearchParams(
        Object.entries(body).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
      );
    } catch {
      return new URLSearchParams();
    }
  }
  return new URLSearchParams(text);
}

function page(status: number, body: string): Reply {
  return {
    status,
    raw: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>GitHub</title></head><body>${body}</body></html>`,
    headers: { 'content-type': 'text/html; charset=utf-8' },
  };
}
