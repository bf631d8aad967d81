import {
  type ClaimComment,
  heartbeat,
  isLive,
  isStale,
  staleAt,
  staleSince,
} from '../../claims/liveness.js';
import { formatClaimTime } from '../../claims/marker.js';
import { pathLineOf } from '../../claims/paths.js';
import type { IssueState } from '../io/issue-state.js';

/** A claim as the client reports it: public facts only, JSON-safe. */
export interface ClaimView {
  readonly commentId: number;
  readonly url?: string;
  readonly author: string;
  readonly session: string;
  readonly lane: string;
  readonly branch: string;
  readonly stage: string;
  readonly started: string;
  readonly updated: string;
  /** docs/protocol.md §3: the earlier of the marker's `updated` and GitHub's `updated_at`. */
  readonly heartbeat: string;
  /**
   * When the claim turns stale if nothing updates it; for a stale claim, when it went stale
   * (at once, for a marker over the clock-skew cap).
   */
  readonly staleAt: string;
  readonly live: boolean;
  readonly assignee?: string;
  readonly outcome?: string;
  /** The paths the claim names on its path line (docs/protocol.md §10), when it has a valid one. */
  readonly paths?: readonly string[];
}

/**
 * The public view of a claim comment. Everything here is already on the issue for anyone to
 * read; sessions and lanes are the marker's values (tags, or a legacy comment's plain ones).
 */
export function claimView(
  claim: ClaimComment,
  issueOpen: boolean,
  staleAfterMs: number,
  now: Date,
): ClaimView {
  const { comment, marker } = claim;
  const pathLine = pathLineOf(comment.body);
  return {
    commentId: comment.id,
    ...(comment.url ? { url: comment.url } : {}),
    author: comment.author,
    session: marker.session,
    lane: marker.lane,
    branch: marker.branch,
    stage: marker.stage,
    started: formatClaimTime(marker.started),
    updated: formatClaimTime(marker.updated),
    heartbeat: formatClaimTime(heartbeat(claim)),
    staleAt: formatClaimTime(
      isStale(claim, staleAfterMs, now)
        ? staleSince(claim, staleAfterMs, now)
        : staleAt(claim, staleAfterMs),
    ),
    live: isLive(claim, issueOpen, staleAfterMs, now),
    ...(marker.assignee ? { assignee: marker.assignee } : {}),
    ...(marker.outcome ? { outcome: marker.outcome } : {}),
    ...(pathLine.kind === 'valid' ? { paths: pathLine.paths } : {}),
  };
}

/**
 * One line naming a claim the way a refusal names its holder (docs/agents.md, "Commands"): its session, lane, branch,
 * stage and last update, plus where to find it.
 */
export function describeClaim(view: ClaimView): string {
  const paths = view.paths ? `, paths ${view.paths.join(',')}` : '';
  return `comment ${view.commentId} by @${view.author}: session ${view.session}, lane ${view.lane}, branch ${view.branch}, stage ${view.stage}${paths}, last update ${view.heartbeat}`;
}

/** The view of a claim as one read of its issue saw it. */
export function viewIn(state: IssueState, claim: ClaimComment): ClaimView {
  return claimView(claim, state.thread.open, state.config.staleAfterMs, state.now);
}
