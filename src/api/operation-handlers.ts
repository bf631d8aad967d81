import type { OperationName } from '../operations/operation.js';
import type { ApiAnswer } from './answers/api-answer.js';
import type { ApiError } from './answers/api-error.js';
import {
  ClaimBody,
  HeartbeatBody,
  parseBody,
  ReleaseAllBody,
  ReleaseBody,
} from './answers/request-bodies.js';
import type { ApiDeps } from './caller/api-deps.js';
import type { Caller } from './caller/authenticate.js';
import { issueNotFound, repoNotFound } from './caller/not-found.js';
import { getClaim } from './claim/get-claim.js';
import { heartbeatClaim } from './claim/heartbeat-claim.js';
import { postClaim } from './claim/post-claim.js';
import { releaseAllClaims } from './claim/release-all-claims.js';
import { releaseClaim } from './claim/release-claim.js';
import { checkPaths } from './paths-check/check-paths.js';
import { listIssues } from './queue/list-issues.js';

/**
 * One call of an operation, as every door hands it over: the repository (and issue) its route
 * names, already decoded; its body (the JSON of a REST call, a tool's arguments); its query.
 */
export interface OperationRequest {
  readonly owner?: string;
  readonly repo?: string;
  readonly number?: number;
  readonly body?: unknown;
  readonly query?: URLSearchParams;
}

/**
 * What runs an operation for a caller, and the one 404 its route answers (docs/protocol.md §8
 * "Nothing leaks"), null for the queue and the release of a session's claims, which name no
 * repository in their route.
 */
interface OperationHandler {
  readonly notFound: (() => ApiError) | null;
  serve(deps: ApiDeps, caller: Caller, request: OperationRequest): Promise<ApiAnswer>;
}

const issueOf = (r: OperationRequest) => ({ owner: r.owner!, repo: r.repo!, number: r.number! });
const repoOf = (r: OperationRequest) => ({ owner: r.owner!, repo: r.repo! });
const queryOf = (r: OperationRequest) => r.query ?? new URLSearchParams();

/** Each operation of the catalogue (src/operations/) bound to its handler. */
export const OPERATION_HANDLERS: Readonly<Record<OperationName, OperationHandler>> = {
  claim: {
    notFound: issueNotFound,
    serve: (deps, caller, r) => postClaim(deps, caller, issueOf(r), parseBody(ClaimBody, r.body)),
  },
  heartbeat: {
    notFound: issueNotFound,
    serve: (deps, caller, r) =>
      heartbeatClaim(deps, caller, issueOf(r), parseBody(HeartbeatBody, r.body)),
  },
  release: {
    notFound: issueNotFound,
    serve: (deps, caller, r) =>
      releaseClaim(deps, caller, issueOf(r), parseBody(ReleaseBody, r.body)),
  },
  'release-all': {
    notFound: null,
    serve: (deps, caller, r) => releaseAllClaims(deps, caller, parseBody(ReleaseAllBody, r.body)),
  },
  get: {
    notFound: issueNotFound,
    serve: (deps, caller, r) => getClaim(deps, caller, issueOf(r)),
  },
  list: {
    notFound: null,
    serve: (deps, caller, r) => listIssues(deps, caller, queryOf(r)),
  },
  paths: {
    notFound: repoNotFound,
    serve: (deps, caller, r) => checkPaths(deps, caller, repoOf(r), queryOf(r)),
  },
};
