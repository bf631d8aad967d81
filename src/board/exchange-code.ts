import { z } from 'zod';
import { githubJson } from './github-json.js';

/** GitHub's answer to the code exchange: a token, or an error such as `bad_verification_code`. */
const TokenAnswer = z.union([
  z.object({ access_token: z.string().min(1) }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);

/** GitHub's `GET /user`, as far as the board reads it. */
const GitHubUser = z.object({ login: z.string().min(1), avatar_url: z.string().default('') });

/** Where the board's sign-in talks to GitHub. */
export interface OAuthEndpoints {
  /** The web host: `https://github.com`, or `<GHE_PROTOCOL>://<GHE_HOST>`. */
  readonly webUrl: string;
  /** The REST API: `https://api.github.com`, or `<GHE_PROTOCOL>://<GHE_HOST>/api/v3`. */
  readonly apiUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** A signed-in user: the token and who it names. */
export interface SignedInUser {
  readonly token: string;
  readonly login: string;
  readonly avatarUrl: string;
}

/**
 * The second half of GitHub's OAuth web flow: exchanges the callback's `code` for the user's
 * token (`POST /login/oauth/access_token` on the web host), then reads who it names
 * (`GET /user`). Throws with a message fit for the sign-in page; never quotes the token.
 */
export async function exchangeCode(
  endpoints: OAuthEndpoints,
  code: string,
  redirectUri: string,
  fetchImpl: typeof fetch = fetch,
): Promise<SignedInUser> {
  const response = await fetchImpl(`${endpoints.webUrl}/login/oauth/access_token`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': 'claim-warden-board',
    },
    body: JSON.stringify({
      client_id: endpoints.clientId,
      client_secret: endpoints.clientSecret,
      code,
      redirect_uri: redirectUri,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`GitHub answered ${response.status} to the code exchange`);
  }
  const answer = TokenAnswer.safeParse(await response.json().catch(() => null));
  if (!answer.success) throw new Error('GitHub gave no token for the sign-in code');
  if ('error' in answer.data) {
    // `bad_verification_code` (used or expired), `incorrect_client_credentials`, ...
    throw new Error(`GitHub refused the sign-in code (${answer.data.error})`);
  }
  const token = answer.data.access_token;
  const user = GitHubUser.safeParse(
    (await githubJson(`${endpoints.apiUrl}/user`, token, fetchImpl)).body,
  );
  if (!user.success) throw new Error('GitHub did not say who signed in (GET /user)');
  return { token, login: user.data.login, avatarUrl: user.data.avatar_url };
}
