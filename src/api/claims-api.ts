import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { RepoConfigResult } from '../config/repo-config.js';
import { settingDefault } from '../config/settings.js';
import { OPERATIONS } from '../operations/catalogue.js';
import { matchRoute, type RawParams } from '../operations/match-route.js';
import type { Operation, OperationName } from '../operations/operation.js';
import type { ReconcileRequest, WorkQueue } from '../queue/queue.js';
import type { ReconcileResult } from '../reconcile/reconcile-deps.js';
import { isRepoName } from '../repo-names.js';
import type { Store } from '../store/store.js';
import type { ApiAnswer } from './answers/api-answer.js';
import { ApiError, errorObject, invalidInput, unverifiable } from './answers/api-error.js';
import type { ApiDeps } from './caller/api-deps.js';
import { authenticate, bearerToken, type Caller, tokenHashOf } from './caller/authenticate.js';
import {
  type CallerLimitSettings,
  type CallerLimits,
  callerLimits,
} from './caller/caller-limits.js';
import { identityLookups } from './caller/identity-lookups.js';
import type { IssueView } from './caller/issue-view.js';
import { type LimitCounters, limitCounters } from './caller/limit-counters.js';
import { repoAccess } from './caller/repo-access.js';
import { SharedReads } from './caller/shared-reads.js';
import { TtlCache } from './caller/ttl-cache.js';
import { OPERATION_HANDLERS, type OperationRequest } from './operation-handlers.js';

/** Where the claims API is served on the app's server (docs/protocol.md §8). */
export const API_PREFIX = '/api/claims/v1';

/** The largest request body read; a claim request is a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;

/** docs/protocol.md §8, §9: identity, permission and visibility answers are kept at most this long. */
export const API_CACHE_MS = 5 * 60_000;

/** How long a token GitHub refused is answered 401 without asking again. */
const REFUSED_TOKEN_MS = 60_000;

/** What the app hands the claims API. */
export interface ClaimsApiOptions {
  readonly store: Store;
  readonly queue: WorkQueue;
  readonly log: Logger;
  readonly now: () => Date;
  /** The clock writes are paced on (default real time, monotonic). */
  readonly pacedNow?: () => number;
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
  /**
   * Per-caller limits (docs/protocol.md §8 "Limits"), shared with the remote MCP server;
   * default: {@link DEFAULT_CALLER_LIMITS}, counted on `counters`.
   */
  readonly limits?: CallerLimits;
  /** Where limits are counted (default: this process). */
  readonly counters?: LimitCounters;
  /** People's claims of an issue (docs/protocol.md §16); absent: none are read. */
  readonly peopleGate?: ApiDeps['peopleGate'];
  /**
   * How long the readers of an issue share one read of it (docs/protocol.md §8 "Readers"):
   * the installation's write pacing, `CLAIMS_WRITE_PACING_MS` (default 1000).
   */
  readonly readIntervalMs?: number;
}

/** The defaults of `CLAIMS_API_RATE_PER_MINUTE` and `CLAIMS_API_CONCURRENCY`. */
export const DEFAULT_CALLER_LIMITS: CallerLimitSettings = {
  perMinute: settingDefault('CLAIMS_API_RATE_PER_MINUTE'),
  concurrency: settingDefault('CLAIMS_API_CONCURRENCY'),
};

/** Builds the claims API's dependencies (caches included) from what the app has. */
export function claimsApiDeps(options: ClaimsApiOptions): ApiDeps {
  const ttlMs = Math.min(options.cacheMs ?? API_CACHE_MS, API_CACHE_MS);
  const clock = () => options.now().getTime();
  const log = options.log.child({ name: 'claims-api' });
  return {
    ...options,
    log,
    pacedNow: options.pacedNow ?? (() => performance.now()),
    baseUrl: String(options.appOctokit.request.endpoint.DEFAULTS.baseUrl).replace(/\/$/, ''),
    access: repoAccess({ ...options, ttlMs }),
    logins: new TtlCache<string>(ttlMs, clock),
    refusedTokens: new TtlCache<string>(Math.min(REFUSED_TOKEN_MS, ttlMs), clock),
    lookups: identityLookups(options.counters ?? limitCounters({ log, now: clock })),
    reads: new SharedReads<IssueView>(options.readIntervalMs ?? 1000, clock),
  };
}

/**
 * The per-caller limits of `settings` counted on `counters` (docs/protocol.md §8 "Limits"):
 * the claims API's and the remote MCP server's, one count for both.
 */
export function apiCallerLimits(
  settings: CallerLimitSettings,
  counters: LimitCounters,
): CallerLimits {
  return callerLimits(settings, {
    rate: counters.rate('api-rate', settings.perMinute),
    running: counters.running('api-running', settings.concurrency),
  });
}

/** The answer of one operation: status, headers (lower-case names) and the JSON body. */
export interface OperationReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, handed on as it is
  readonly body: any;
}

/** Who a token names, or the refusal a REST call with it would get. */
type Identified =
  | { readonly ok: true; readonly caller: Caller }
  | { readonly ok: false; readonly reply: OperationReply };

/**
 * The claims API: the REST door, and what the app's other doors (the remote MCP server) call
 * instead of making HTTP requests of it: one look-up of the caller, then each operation as one
 * call of its handler with typed input. The same caches, locks and read-backs serve every
 * door, so a door is an adapter and never a second implementation; the remote MCP server
 * counts each of its requests once against the same caller limits.
 */
export interface ClaimsApi {
  /** Answers requests under `/api/claims/v1` and resolves true; false for every other path. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /**
   * The caller of an `Authorization` header, resolved by `GET /user` (cached; a token not known
   * yet is looked up within the bounds for `clientAddress`); otherwise the refusal a REST call
   * would get (401, 429, 503). It counts nothing against the caller's limits: its maker has.
   */
  identify(
    authorization: string | undefined,
    clientAddress: string | undefined,
  ): Promise<Identified>;
  /** One operation for an admitted caller; errors are answers, as REST sends them. */
  run(name: OperationName, caller: Caller, request: OperationRequest): Promise<OperationReply>;
}

/** Each operation's route, compiled once. */
const ROUTES = OPERATIONS.map((operation) => ({ operation, match: matchRoute(operation.route) }));

/**
 * The claims API (docs/protocol.md §8–§10), its routes read from the operation catalogue
 * (src/operations/). Each REST call authenticates the caller by the bearer token, validates
 * its input before anything is read or written, and answers JSON; errors are
 * `{ error: { code, message, details? } }`.
 */
export function createClaimsApi(options: ClaimsApiOptions): ClaimsApi {
  const deps = claimsApiDeps(options);
  const limits =
    options.limits ??
    apiCallerLimits(
      DEFAULT_CALLER_LIMITS,
      options.counters ?? limitCounters({ log: deps.log, now: () => options.now().getTime() }),
    );
  const run = async (name: OperationName, caller: Caller, request: OperationRequest) => {
    try {
      return replyOf(await serve(deps, name, caller, request));
    } catch (error) {
      return failureOf(knownError(deps, error, { operation: name }));
    }
  };
  return {
    run,
    async identify(authorization, clientAddress) {
      const req = {
        headers: { authorization },
        socket: { remoteAddress: clientAddress },
      } as unknown as IncomingMessage;
      try {
        return { ok: true, caller: await authenticate(req, deps) };
      } catch (error) {
        return { ok: false, reply: failureOf(knownError(deps, error, { identify: true })) };
      }
    },
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== API_PREFIX && !url.pathname.startsWith(`${API_PREFIX}/`)) return false;
      const path = url.pathname.slice(API_PREFIX.length);
      const method = req.method ?? 'GET';
      let reply: OperationReply;
      let leave = () => {};
      try {
        leave = await admit(limits, req);
        const { operation, params } = routeOf(method, path);
        const where = targetOf(operation, params);
        const caller = await authenticate(req, deps);
        const body = operation.method === 'GET' ? undefined : await readJson(req);
        const request = { ...where, body, query: url.searchParams };
        reply = replyOf(await serve(deps, operation.name, caller, request));
      } catch (error) {
        reply = failureOf(knownError(deps, error, { method, path }));
      } finally {
        leave();
      }
      for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(reply.body));
      return true;
    },
  };
}

/**
 * One operation's handler, its route's one 404 for whatever it finds missing (repository,
 * installation, visibility, issue: docs/protocol.md §8 "Nothing leaks"). The owner and name
 * are checked against GitHub's grammar first: anything else names no repository.
 */
async function serve(
  deps: ApiDeps,
  name: OperationName,
  caller: Caller,
  request: OperationRequest,
): Promise<ApiAnswer> {
  const handler = OPERATION_HANDLERS[name];
  const { notFound } = handler;
  if (notFound === null) return handler.serve(deps, caller, request);
  if (!isRepoName(request.owner ?? '', request.repo ?? '')) {
    throw notFound();
  }
  try {
    return await handler.serve(deps, caller, request);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}

/**
 * docs/protocol.md §8 "Limits": a call with a token counts against that token's limits (by
 * its hash) before anything else is done for it, GitHub's `GET /user` included. A call without
 * one is answered 401 at once and costs nothing.
 */
async function admit(limits: CallerLimits, req: IncomingMessage): Promise<() => void> {
  let token: string;
  try {
    token = bearerToken(req);
  } catch {
    return () => {};
  }
  return limits.enter(tokenHashOf(token));
}

/** The operation a method and path name: 404 for no route, 405 for another method. */
function routeOf(method: string, path: string): { operation: Operation; params: RawParams } {
  const matched = ROUTES.flatMap(({ operation, match }) => {
    const params = match(path);
    return params ? [{ operation, params }] : [];
  });
  const found = matched.find((m) => m.operation.method === method);
  if (found) return found;
  if (matched.length === 0) {
    throw new ApiError(
      404,
      'NOT_FOUND',
      `no route ${path}: see the README for the routes of ${API_PREFIX}`,
    );
  }
  const methods = matched.map((m) => m.operation.method);
  throw new ApiError(
    405,
    'METHOD_NOT_ALLOWED',
    `use ${methods.join(' or ')} on this route`,
    undefined,
    { allow: methods.join(', ') },
  );
}

/**
 * The repository (and issue) of a path, percent-decoded. A malformed escape (`a%zz`) or a
 * name outside GitHub's grammar names no repository: the route's one 404, never an error
 * logged, and before the caller's token is looked at.
 */
function targetOf(operation: Operation, params: RawParams): OperationRequest {
  if (operation.target === 'none') return {};
  const owner = safeDecode(params.owner!);
  const repo = safeDecode(params.repo!);
  if (!isRepoName(owner ?? '', repo ?? '')) {
    throw OPERATION_HANDLERS[operation.name].notFound!();
  }
  return {
    owner,
    repo,
    ...(params.number === undefined ? {} : { number: Number(params.number) }),
  };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
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
function knownError(deps: ApiDeps, error: unknown, what: Record<string, unknown>): ApiError {
  if (error instanceof ApiError) return error;
  deps.log.error({ err: error, ...what }, 'claims API: request failed');
  return unverifiable('the request could not be completed');
}

function replyOf(answer: ApiAnswer): OperationReply {
  return { status: answer.status, headers: {}, body: answer.body };
}

function failureOf(known: ApiError): OperationReply {
  return {
    status: known.status,
    headers: { ...known.headers },
    body: { error: errorObject(known) },
  };
}
