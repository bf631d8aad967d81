import { sameName } from '../../claims/names.js';
import { isPersonClaim } from '../../claims/public-claim.js';
import { type IssueKey, issueRef } from '../../keys.js';
import { RELEASE_ALL_OUTCOME } from '../../operations/catalogue.js';
import { isLiveClaim } from '../../read-model/live-claims.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import { ApiError, errorObject, unverifiable } from '../answers/api-error.js';
import type { ReleaseAllBody } from '../answers/request-bodies.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { forEachBounded } from '../queue/for-each-bounded.js';
import { releaseClaim } from './release-claim.js';

/** How many repositories' visibility is checked at once with the caller's token (as §9's). */
const VISIBILITY_CHECKS_AT_ONCE = 8;

/**
 * How many of the session's claims are released at once, each in its own issue's lock: a
 * session's claims are a handful, and a few at a time keeps one call from taking every write
 * slot of an installation's pacing.
 */
const RELEASES_AT_ONCE = 4;

/**
 * How long a call starts releases for. Each costs two or three paced writes (a second apart):
 * twenty claims take about a minute. Releases not started by then are answered as not reached
 * (503, retry), so the call answers within the client's 45 s deadline (the releases under way
 * finish first) and a second call releases the rest.
 */
const RELEASE_ALL_BUDGET_MS = 25_000;

/** One issue that could not be released, with the error its own release answered. */
interface Failed {
  readonly issue: string;
  readonly error: ReturnType<typeof errorObject>;
}

/**
 * `DELETE /api/claims/v1/claims` (docs/protocol.md §17): every live claim of the caller's
 * session, found in the app's index of open issues (no search), in repositories the
 * caller's own token can read, each released by the single release's handler
 * (`releaseClaim`), so in its issue's lock, read back, with its labels, assignee, path line
 * and events as one release would. An issue that cannot be released (its thread unreadable:
 * 503) lands in `failed` and the others go on; a claim the thread shows is no longer held
 * (the index lagged) is not one of the session's, so it is in neither list. A repository the
 * caller cannot read is never asked about nor named; one whose visibility GitHub cannot tell
 * fails the whole call before anything is written (docs/protocol.md §6).
 */
export async function releaseAllClaims(
  deps: ApiDeps,
  caller: Caller,
  body: ReleaseAllBody,
): Promise<ApiAnswer> {
  const now = deps.now();
  const held = (await deps.store.openIssues())
    .flatMap(({ issue, claim }) =>
      isLiveClaim(claim, now) &&
      !isPersonClaim(claim) &&
      sameName(claim.author, caller.login) &&
      claim.session === body.session
        ? [issue.key]
        : [],
    )
    .sort(byRepoAndNumber);
  const repos = [...new Set(held.map(repoName))];
  const readable = new Set<string>();
  // The cache `releaseClaim` asks again (kept: a readable repository costs one call).
  await forEachBounded(repos, VISIBILITY_CHECKS_AT_ONCE, async (name) => {
    if (await deps.access.mayRead(caller, name)) readable.add(name);
  });
  const mine = held.filter((key) => readable.has(repoName(key)));
  const outcome = body.outcome ?? RELEASE_ALL_OUTCOME;
  const request = {
    session: body.session,
    outcome,
    ...(body.note === undefined ? {} : { note: body.note }),
  };
  const results: Array<{ claim: unknown } | Failed | null> = mine.map(() => null);
  const startedAt = deps.pacedNow();
  await forEachBounded([...mine.keys()], RELEASES_AT_ONCE, async (index) => {
    const key = mine[index]!;
    if (deps.pacedNow() - startedAt >= RELEASE_ALL_BUDGET_MS) {
      results[index] = { issue: issueRef(key), error: errorObject(NOT_REACHED) };
      return;
    }
    try {
      const answer = await releaseClaim(deps, caller, key, request);
      results[index] = { claim: (answer.body as { claim: unknown }).claim };
    } catch (error) {
      results[index] = failureOf(deps, key, error);
    }
  });
  const released = results.flatMap((r) => (r !== null && 'claim' in r ? [r.claim] : []));
  const failed = results.flatMap((r) => (r !== null && 'error' in r ? [r] : []));
  deps.log.info(
    { login: caller.login, released: released.length, failed: failed.length, outcome },
    'claims API: session released',
  );
  return { status: 200, body: { released, failed } };
}

/**
 * What one issue's release contributes when it throws: nothing for a claim the thread shows
 * the session no longer holds, or an issue gone from where the index saw it; otherwise the
 * issue and its error object (an unexpected error logged and told as 503, as the router does).
 */
function failureOf(deps: ApiDeps, key: IssueKey, error: unknown): Failed | null {
  if (error instanceof ApiError && (error.code === 'CLAIM_NOT_HELD' || error.status === 404)) {
    return null;
  }
  const issue = issueRef(key);
  if (error instanceof ApiError) return { issue, error: errorObject(error) };
  deps.log.error({ err: error, issue }, 'claims API: release of a session’s claim failed');
  return { issue, error: errorObject(unverifiable('the release could not be completed')) };
}

/** A release the call's time ran out before (docs/protocol.md §17): the claim is still live. */
const NOT_REACHED = unverifiable(
  `not released: the call stops starting releases after ${RELEASE_ALL_BUDGET_MS / 1000} s so that it answers in time, and this claim is still live; call again for the rest`,
  1,
);

const repoName = (key: IssueKey) => `${key.owner}/${key.repo}`;

function byRepoAndNumber(a: IssueKey, b: IssueKey): number {
  const ra = repoName(a).toLowerCase();
  const rb = repoName(b).toLowerCase();
  return ra < rb ? -1 : ra > rb ? 1 : a.number - b.number;
}
