import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { restEndpointMethods } from '@octokit/plugin-rest-endpoint-methods';
import { retry } from '@octokit/plugin-retry';
import { config } from '@probot/octokit-plugin-config';
import type { ProbotOctokit } from 'probot';
import type { TextGuard } from './text-guard.js';

/** How to reach GitHub for one command. */
interface GitHubClientOptions {
  readonly token: string;
  readonly baseUrl: string;
  /** Carried by every request: the command's deadline (docs/agents.md, "Running it"). */
  readonly signal: AbortSignal;
  /** Every comment, issue body or title written passes it (docs/agents.md, "Identity tags and the text guard"). */
  readonly guard: TextGuard;
  readonly fetch?: typeof globalThis.fetch;
}

// Request parameters whose text GitHub publishes: comment and issue bodies, issue titles.
const PUBLIC_TEXT_PARAMS = ['body', 'title'] as const;

/**
 * Probot's octokit without Probot: the plugins that make up `ProbotOctokit`'s shape (so
 * `readThread`, `executePlan` and `loadRepoConfig` take it as they are), not the framework,
 * so the installed client carries no server (its package bundles this file).
 */
const ClientOctokit = Octokit.plugin(retry, paginateRest, restEndpointMethods, config);

/**
 * An octokit for the agent client, authenticated with a user token.
 *
 * - Retries are off: a comment POST is not idempotent, and the protocol's read-back, not a
 *   blind resend, is what repairs a half-done write.
 * - Throttling is not there: Probot's process-wide write pacing (1 s between writes, 3 s between
 *   comment posts) would spend the 45-second deadline on sleeping; a rate limit is a GitHub
 *   failure like any other, reported as unverifiable so the caller tries again later.
 * - The deadline's signal is a request default, so every call carries it.
 * - The text guard runs as a request hook, the one path every write takes, so no write can
 *   skip it; the operations also check their text before the first write, so a refusal
 *   never leaves half a claim behind.
 */
export function githubClient(options: GitHubClientOptions): ProbotOctokit {
  const octokit = new ClientOctokit({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: 'claim-warden-client',
    retry: { enabled: false },
    request: {
      signal: options.signal,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  });
  octokit.hook.before('request', (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    for (const param of PUBLIC_TEXT_PARAMS) {
      const text: unknown = request[param];
      if (typeof text === 'string') options.guard.check(text, `the ${param} of a GitHub write`);
    }
  });
  return octokit;
}
