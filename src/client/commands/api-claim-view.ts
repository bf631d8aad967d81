import type { ClaimView } from './claim-view.js';

/** A claim object as the claims API writes it (docs/protocol.md §8). */
export interface ApiClaim {
  readonly commentId: number;
  readonly url?: string;
  readonly author: string;
  readonly session: string;
  readonly lane: string;
  readonly branch: string;
  readonly stage: string;
  readonly started: string;
  readonly updated: string;
  readonly heartbeat: string;
  readonly staleAt: string;
  readonly assignee?: string | null;
  readonly outcome?: string;
  readonly paths?: readonly string[];
}

/**
 * The client's view of a claim object of the API, so API mode prints what direct mode
 * prints. `live` is the API's word: a holder it names is live, a released claim is not.
 */
export function apiClaimView(claim: ApiClaim, live: boolean): ClaimView {
  return {
    commentId: claim.commentId,
    ...(claim.url ? { url: claim.url } : {}),
    author: claim.author,
    session: claim.session,
    lane: claim.lane,
    branch: claim.branch,
    stage: claim.stage,
    started: claim.started,
    updated: claim.updated,
    heartbeat: claim.heartbeat,
    staleAt: claim.staleAt,
    live,
    ...(claim.assignee ? { assignee: claim.assignee } : {}),
    ...(claim.outcome ? { outcome: claim.outcome } : {}),
    ...(claim.paths && claim.paths.length > 0 ? { paths: claim.paths } : {}),
  };
}
