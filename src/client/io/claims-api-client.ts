import { unverifiable } from '../core/client-error.js';
import { describeFailure } from './describe-failure.js';

/** One answer of the claims API: its status and its JSON body (null when it had none). */
export interface ApiReply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON from the app; each caller reads its shape
  readonly body: any;
  /** The `retry-after` header of a 503, in seconds. */
  readonly retryAfterS?: number;
}

/** The claims API as the client speaks it (docs/protocol.md §8, §9, §10). */
export interface ClaimsApi {
  /** The API's base, `<CLAIM_WARDEN_URL>/api/claims/v1`, for messages. */
  readonly baseUrl: string;
  /** Sends one request; throws unverifiable when the app cannot be reached or answers garbage. */
  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<ApiReply>;
}

/** How to reach the app for one command. */
interface ClaimsApiOptions {
  readonly baseUrl: string;
  /** The caller's GitHub token, sent as `Authorization: Bearer`; never part of a message. */
  readonly token: string;
  /** The command's deadline (and an MCP client's cancellation). */
  readonly signal: AbortSignal;
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * A client of the claims API. No retries: a claim POST is not idempotent, and the answer of a
 * resent request could not tell a first claim from a renewal; a caller told "unverifiable"
 * runs the command again, which the API answers from the thread (docs/protocol.md §8 "Never
 * a guess"). Failure messages name the route, never the token.
 */
export function claimsApiClient(options: ClaimsApiOptions): ClaimsApi {
  const send = options.fetch ?? globalThis.fetch;
  return {
    baseUrl: options.baseUrl,
    async call(method, path, body) {
      let response: Response;
      try {
        response = await send(`${options.baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${options.token}`,
            accept: 'application/json',
            'user-agent': 'claim-warden-client',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: options.signal,
        });
      } catch (error) {
        if (options.signal.aborted) throw error;
        throw unverifiable(
          `the claims app at ${options.baseUrl} did not answer ${method} ${routeOf(path)} (${describeFailure(error)}): check that it runs and that CLAIM_WARDEN_URL names it, then retry; until it answers, nothing is known held or free`,
          {},
          error,
        );
      }
      const text = await response.text();
      let json: unknown = null;
      try {
        json = text === '' ? null : JSON.parse(text);
      } catch {
        throw unverifiable(
          `the claims app at ${options.baseUrl} answered ${response.status} to ${method} ${routeOf(path)} without JSON; is CLAIM_WARDEN_URL the app’s base URL?`,
        );
      }
      const retry = Number(response.headers.get('retry-after'));
      return {
        status: response.status,
        body: json,
        ...(Number.isFinite(retry) && retry > 0 ? { retryAfterS: retry } : {}),
      };
    },
  };
}

/** The route of a request without its query (the query can carry paths; keep messages short). */
function routeOf(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}
