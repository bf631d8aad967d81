import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { RepoConfigResult } from '../config/repo-config.js';
import type { ReconcileRequest, WorkQueue } from '../queue/queue.js';
import type { ReconcileResult } from '../reconcile/reconcile-deps.js';
import { isRepoName } from '../repo-names.js';
import type { Store } from '../store/store.js';
import type { ApiAnswer } from './answers/api-answer.js';
import { ApiError, invalidInput, unverifiable } from './answers/api-error.js';
import { ClaimBody, HeartbeatBody, parseBody, ReleaseBody } from './answers/request-bodies.js';
import type { ApiDeps } from './caller/api-deps.js';
import { authenticate, bearerToken, tokenHashOf } from './caller/authenticate.js';
import {
  type CallerLimitSettings,
  type CallerLimits,
  callerLimits,
} from './caller/caller-limits.js';
import { issueNotFound, repoNotFound } from './caller/not-found.js';
import { repoAccess } from './caller/repo-access.js';
import { TtlCache } from './caller/ttl-cache.js';
import { getClaim } from './claim/get-claim.js';
import { heartbeatClaim } from './claim/heartbeat-claim.js';
import { postClaim } from './claim/post-claim.js';
import { releaseClaim } from './claim/release-claim.js';
import { checkPaths } from './paths/check-paths.js';
import { listIssues } from './queue/list-issues.js';

/** Where the claims API is served on the app's server (docs/protocol.md §8). */
export const API_PREFIX = '/api/claims/v1';

/** The largest request body read; a claim request is a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;

const PATHS_PATH = /^\/repos\/([^/]+)\/([^/]+)\/paths$/;

const CLAIM_PATH = /^\/repos\/([^/]+)\/([^/]+)\/issues\/([1-9]\d{0,9})\/claim(\/heartbeat)?$/;

/** docs/protocol.md §8, §9: identity, permission and visibility answers are kept at most this long. */
export const API_CACHE_MS = 5 * 60_000;

/** What the app hands the claims API. */
export interface ClaimsApiOptions {
  readonly store: Store;
  readonly queue: WorkQueue;
  readonly log: Logger;
  readonly now: () => Date;
  /** The app's own login (`slug[bot]`), as the reconcile knows it. */
  readonly appLogin: string;
  /** The app's JWT octokit: which installation a repository has. */
  readonly appOctokit: ProbotOctokit;
  octokitFor(installationId: number): Promise<ProbotOctokit>;
  config(octokit: ProbotOctokit, where: { owner: string; repo: string }): Promise<RepoConfigResult>;
  reconcile(request: ReconcileRequest): Promise<ReconcileResult>;
  /** Whether outgoing claim events are sent (`CLAIMS_EVENTS_URL`, docs/protocol.md §13). */
  readonly events: boolean;
  /** Cache lifetime of identity, permission and visibility (default and maximum 5 minutes). */
  readonly cacheMs?: number;
  /** Per-caller limits (docs/protocol.md §8 "Limits"): the operator's settings. */
  readonly limits: CallerLimitSettings;
  /** People's claims of an issue (docs/protocol.md §16); absent: none are read. */
  readonly peoplePlan?: ApiDeps['peoplePlan'];
}

/** Builds the claims API's dependencies (caches included) from what the app has. */
export function claimsApiDeps(options: ClaimsApiOptions): ApiDeps {
  const ttlMs = Math.min(options.cacheMs ?? API_CACHE_MS, API_CACHE_MS);
  const clock = () => options.now().getTime();
  return {
    ...options,
    log: options.log.child({ name: 'claims-api' }),
    baseUrl: String(options.appOctokit.request.endpoint.DEFAULTS.baseUrl).replace(/\/$/, ''),
    access: repoAccess({ ...options, ttlMs }),
    logins: new TtlCache<string>(ttlMs, clock),
  };
}

/**
 * The claims API as a handler for Probot's server (`addHandler`): answers requests under
 * `/api/claims/v1` and resolves true; resolves false for every other path. Each route
 * authenticates the caller by the bearer token, validates its input before anything is
 * read or written, and answers JSON; errors are `{ error: { code, message, details? } }`.
 */
export function createClaimsApi(
  options: ClaimsApiOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const deps = claimsApiDeps(options);
  const limits = callerLimits(options.limits, () => options.now().getTime());
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== API_PREFIX && !url.pathname.startsWith(`${API_PREFIX}/`)) return false;
    const path = url.pathname.slice(API_PREFIX.length);
    let answer: ApiAnswer;
    let leave = () => {};
    try {
      leave = admit(limits, req);
      answer = await route(deps, req, path, url.searchParams);
    } catch (error) {
      const known = knownError(deps, error, req.method ?? 'GET', path);
      for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
      answer = errorAnswer(known);
    } finally {
      leave();
    }
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(answer.body));
    return true;
  };
}

/**
 * docs/protocol.md §8 "Limits": a call with a token counts against that token's limits (by
 * its hash) before anything else is done for it, GitHub's `GET /user` included. A call without
 * one is answered 401 at once and costs nothing.
 */
function admit(limits: CallerLimits, req: IncomingMessage): () => void {
  let token: string;
  try {
    token = bearerToken(req);
  } catch {
    return () => {};
  }
  return limits.enter(tokenHashOf(token));
}

async function route(
  deps: ApiDeps,
  req: IncomingMessage,
  path: string,
  params: URLSearchParams,
): Promise<ApiAnswer> {
  const method = req.method ?? 'GET';
  if (path === '/issues') {
    allow(method, ['GET']);
    const caller = await authenticate(req, deps);
    return listIssues(deps, caller, params);
  }
  const paths = PATHS_PATH.exec(path);
  if (paths) {
    allow(method, ['GET']);
    const where = repoOf(paths[1]!, paths[2]!, repoNotFound);
    const caller = await authenticate(req, deps);
    return uniformNotFound(checkPaths(deps, caller, where, params), repoNotFound);
  }
  const match = CLAIM_PATH.exec(path);
  if (!match) {
    throw new ApiError(
      404,
      'NOT_FOUND',
      `no route ${path}: see the README for the routes of ${API_PREFIX}`,
    );
  }
  const target = { ...repoOf(match[1]!, match[2]!, issueNotFound), number: Number(match[3]) };
  if (match[4]) {
    allow(method, ['POST']);
    const caller = await authenticate(req, deps);
    const body = parseBody(HeartbeatBody, await readJson(req));
    return uniformNotFound(heartbeatClaim(deps, caller, target, body), issueNotFound);
  }
  allow(method, ['GET', 'POST', 'DELETE']);
  const caller = await authenticate(req, deps);
  switch (method) {
    case 'GET':
      return uniformNotFound(getClaim(deps, caller, target), issueNotFound);
    case 'POST': {
      const body = parseBody(ClaimBody, await readJson(req));
      return uniformNotFound(postClaim(deps, caller, target, body), issueNotFound);
    }
    default: {
      const body = parseBody(ReleaseBody, await readJson(req));
      return uniformNotFound(releaseClaim(deps, caller, target, body), issueNotFound);
    }
  }
}

/**
 * The owner and name of a path, percent-decoded. A malformed escape (`a%zz`) or a name
 * outside GitHub's grammar names no repository: the route's one 404, never an error logged.
 */
function repoOf(
  owner: string,
  repo: string,
  notFound: () => ApiError,
): { owner: string; repo: string } {
  const decoded = { owner: safeDecode(owner), repo: safeDecode(repo) };
  if (!isRepoName(decoded.owner ?? '', decoded.repo ?? '')) {
    throw notFound();
  }
  return decoded as { owner: string; repo: string };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * docs/protocol.md §8 "Nothing leaks": whatever a route finds missing (repository,
 * installation, visibility, issue) is answered with its one 404, word for word.
 */
async function uniformNotFound(
  answer: Promise<ApiAnswer>,
  notFound: () => ApiError,
): Promise<ApiAnswer> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}

function allow(method: string, methods: readonly string[]): void {
  if (methods.includes(method)) return;
  throw new ApiError(
    405,
    'METHOD_NOT_ALLOWED',
    `use ${methods.join(' or ')} on this route`,
    undefined,
    {
      allow: methods.join(', '),
    },
  );
}

/** The request's JSON body; an empty body is `{}` (DELETE may send none). */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw invalidInput({ body: `at most ${MAX_BODY_BYTES} bytes of JSON` });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidInput({ body: 'a JSON object' });
  }
}

/**
 * The error a request is answered with. Fail closed (docs/protocol.md §6): anything
 * unexpected (the store away, a bug) is logged and answered 503, never as held or free.
 */
function knownError(deps: ApiDeps, error: unknown, method: string, path: string): ApiError {
  if (error instanceof ApiError) return error;
  deps.log.error({ err: error, method, path }, 'claims API: request failed');
  return unverifiable('the request could not be completed');
}

function errorAnswer(known: ApiError): ApiAnswer {
  return {
    status: known.status,
    body: {
      error: {
        code: known.code,
        message: known.message,
        ...(known.details ? { details: known.details } : {}),
      },
    },
  };
}
