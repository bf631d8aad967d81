import type { IncomingMessage, ServerResponse } from 'node:http';
import { type BaseUrlSettings, requestBaseUrl } from '../request-base-url.js';

/** Where RFC 9728 puts the metadata of the resource `<app>/mcp`. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * GitHub's OAuth authorization server for a REST API root: `https://api.github.com` is
 * github.com's; a GitHub Enterprise Server `https://ghe/api/v3` is that host's `/login/oauth`.
 */
function githubAuthorizationServer(apiBaseUrl: string): string {
  const url = new URL(apiBaseUrl);
  const host = url.hostname === 'api.github.com' ? 'github.com' : url.host;
  return `${url.protocol}//${host}/login/oauth`;
}

/** An auth-param value as an RFC 9110 §5.6.4 quoted-string: `"` and `\` escaped. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The `WWW-Authenticate` of a 401 from `/mcp` (MCP authorization, RFC 9728 §5.1). `base` is
 * undefined when the request named no usable host: the challenge then names no metadata
 * rather than a link the client chose.
 */
export function bearerChallenge(base: string | undefined, tokenSent: boolean): string {
  const params = [
    ...(base === undefined
      ? []
      : [`resource_metadata=${quoted(`${base}${RESOURCE_METADATA_PATH}`)}`]),
    ...(tokenSent ? ['error="invalid_token"'] : []),
  ];
  return params.length === 0 ? 'Bearer' : `Bearer ${params.join(', ')}`;
}

/**
 * `GET /.well-known/oauth-protected-resource` (RFC 9728): the resource is `<app>/mcp`, its
 * authorization server is GitHub itself, and a GitHub token in the `Authorization` header is
 * what it takes (the same token as the claims API, docs/protocol.md §8). The app's address is
 * `CLAIMS_PUBLIC_URL`, else the request's validated Host (requestBaseUrl); a Host that is no
 * host name is a 400, never a document naming it.
 */
export function protectedResource(
  settings: BaseUrlSettings,
  apiBaseUrl: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const base = requestBaseUrl(req, settings);
    if (base === undefined) {
      res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
      res.end(
        JSON.stringify({
          error: {
            code: 'INVALID_INPUT',
            message: 'the Host header is not a host name: set CLAIMS_PUBLIC_URL behind a proxy',
          },
        }),
      );
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'max-age=3600',
      // Built from the request when CLAIMS_PUBLIC_URL is unset: a cache keeps one per address.
      vary: 'Host, X-Forwarded-Proto',
      'access-control-allow-origin': '*',
    });
    res.end(
      JSON.stringify({
        resource: `${base}/mcp`,
        authorization_servers: [githubAuthorizationServer(apiBaseUrl)],
        bearer_methods_supported: ['header'],
        resource_name: 'claim-warden',
      }),
    );
  };
}
