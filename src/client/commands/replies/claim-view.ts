import { type ClaimComment, isLive, isStale, staleSince } from '../../../claims/liveness.js';
import { formatClaimTime } from '../../../claims/marker.js';
import {
  type ClaimFields,
  claimFieldsOf,
  type PublicClaim,
  publicClaimOf,
} from '../../../claims/public-claim.js';
import type { IssueState } from '../../io/issue-state.js';

/**
 * A claim as the client reports it: the claim object's facts (docs/protocol.md §8) less its
 * issue, `url` absent rather than empty, and `live`. For a stale claim direct mode's `staleAt`
 * is when it went stale (at once, for a marker over the clock-skew cap).
 */
export type ClaimView = Omit<ClaimFields, 'url'> & {
  readonly url?: string;
  readonly live: boolean;
};

/**
 * The public view of a claim comment. Everything here is already on the issue for anyone to
 * read; sessions and lanes are the marker's values (tags, or a legacy comment's plain ones).
 */
export function claimView(
  claim: ClaimComment,
  issueOpen: boolean,
  staleAfterMs: number,
  now: Date,
  graceMs = 0,
): ClaimView {
  // A live claim's staleAt is the app's (claimFieldsOf: the first whole second it is stale);
  // a stale one's is when it went stale. With a grace (docs/protocol.md §17), its graceUntil.
  const fields = claimFieldsOf(claim, staleAfterMs, graceMs);
  const view = isStale(claim, staleAfterMs, now)
    ? { ...fields, staleAt: formatClaimTime(staleSince(claim, staleAfterMs, now)) }
    : fields;
  return viewOfClaim(view, isLive(claim, issueOpen, staleAfterMs, now));
}

/** The view of a claim's facts, direct mode's or an API answer's, in the client's key order. */
export function viewOfClaim(claim: ClaimFields | PublicClaim, live: boolean): ClaimView {
  // publicClaimOf puts the marker's keys, author to staleAt, in §8's order and nothing else.
  const { issue, commentId, url, assignee, outcome, paths, ...marker } = publicClaimOf('', claim);
  return {
    commentId,
    ...(url ? { url } : {}),
    ...marker,
    live,
    ...(assignee ? { assignee } : {}),
    ...(outcome ? { outcome } : {}),
    ...(paths && paths.length > 0 ? { paths } : {}),
  };
}

/**
 * One line naming a claim the way a refusal names its holder (docs/agents.md, "Commands"): its session, lane, branch,
 * stage and last update, plus where to find it; a person by login and assignment.
 */
export function describeClaim(view: ClaimView): string {
  // docs/protocol.md §16: a person's claim is an assignment, with no comment or session.
  if (view.kind === 'person') {
    const until = view.staleAt ? `stale at ${view.staleAt}` : 'does not expire';
    return `@${view.author}, a person assigned since ${view.started}: last activity ${view.heartbeat}, ${until}`;
  }
  const paths = view.paths ? `, paths ${view.paths.join(',')}` : '';
  return `comment ${view.commentId} by @${view.author}: session ${view.session}, lane ${view.lane}, branch ${view.branch}, stage ${view.stage}${paths}, last update ${view.heartbeat}`;
}

/** The view of a claim as one read of its issue saw it. */
export function viewIn(state: IssueState, claim: ClaimComment): ClaimView {
  const { staleAfterMs, graceMs } = state.config;
  return claimView(claim, state.thread.open, staleAfterMs, state.now, graceMs);
}
