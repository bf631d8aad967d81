import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where RFC 9728 puts the metadata of the resource `<app>/mcp`. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * The app's address for links it hands out: `CLAIMS_PUBLIC_URL` when set, else the address the
 * request came to (the `Host` it named, over plain HTTP as the app listens).
 */
export function appBaseUrl(req: IncomingMessage, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl.replace(/\/$/, '');
  return `http://${req.headers.host ?? 'localhost'}`;
}

/**
 * GitHub's OAuth authorization server for a REST API root: `https://api.github.com` is
 * github.com's; a GitHub Enterprise Server `https://ghe/api/v3` is that host's `/login/oauth`.
 */
function githubAuthorizationServer(apiBaseUrl: string): string {
  const url = new URL(apiBaseUrl);
  const host = url.hostname === 'api.github.com' ? 'github.com' : url.host;
  return `${url.protocol}//${host}/login/oauth`;
}

/** The `WWW-Authenticate` of a 401 from `/mcp` (MCP authorization, RFC 9728 §5.1). */
export function bearerChallenge(base: string, tokenSent: boolean): string {
  const error = tokenSent ? ', error="invalid_token"' : '';
  return `Bearer resource_metadata="${base}${RESOURCE_METADATA_PATH}"${error}`;
}

/**
 * `GET /.well-known/oauth-protected-resource` (RFC 9728): the resource is `<app>/mcp`, its
 * authorization server is GitHub itself, and a GitHub token in the `Authorization` header is
 * what it takes (the same token as the claims API, docs/protocol.md §8).
 */
export function protectedResource(
  publicUrl: string | undefined,
  apiBaseUrl: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const base = appBaseUrl(req, publicUrl);
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'max-age=3600',
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
