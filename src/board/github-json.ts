/** GitHub answered a board request with an error status. */
export class GitHubAnswerError extends Error {
  override readonly name = 'GitHubAnswerError';
  constructor(
    readonly status: number,
    readonly route: string,
  ) {
    super(`GitHub answered ${status} to ${route}`);
  }
}

/**
 * GETs a GitHub REST resource with a user's token and returns the JSON and the next page's
 * URL (the `Link` header's `rel="next"`). Throws GitHubAnswerError on a non-2xx answer; the
 * token is sent only in the header and never appears in an error.
 */
export async function githubJson(
  url: string,
  token: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ body: unknown; next: string | null }> {
  const response = await fetchImpl(url, {
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${token}`,
      'user-agent': 'claim-warden-board',
      'x-github-api-version': '2022-11-28',
    },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new GitHubAnswerError(response.status, new URL(url).pathname);
  }
  const link = response.headers.get('link') ?? '';
  const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? null;
  return { body: await response.json(), next };
}
