import type { OAuthEndpoints } from './exchange-code.js';
import { GitHubAnswerError } from './github-json.js';

/**
 * Revokes a user's token at GitHub on sign-out (docs/protocol.md §14): GitHub's "Delete an
 * app token", `DELETE /applications/{client_id}/token` with Basic authentication by the
 * app's client id and secret and the token in the body `{ access_token }`. Resolves true
 * when GitHub revoked it (204), false when GitHub does not know it (404: revoked or expired
 * already, or the client id is not this app's). Throws GitHubAnswerError on another answer;
 * neither the token nor the secret is ever in an error.
 */
export async function revokeToken(
  endpoints: OAuthEndpoints,
  token: string,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = 10_000,
): Promise<boolean> {
  const route = `/applications/${encodeURIComponent(endpoints.clientId)}/token`;
  const basic = Buffer.from(`${endpoints.clientId}:${endpoints.clientSecret}`).toString('base64');
  const response = await fetchImpl(`${endpoints.apiUrl}${route}`, {
    method: 'DELETE',
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Basic ${basic}`,
      'content-type': 'application/json',
      'user-agent': 'claim-warden-board',
      'x-github-api-version': '2022-11-28',
    },
    body: JSON.stringify({ access_token: token }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  await response.body?.cancel();
  if (response.status === 204) return true;
  if (response.status === 404) return false;
  throw new GitHubAnswerError(response.status, 'DELETE /applications/{client_id}/token');
}
