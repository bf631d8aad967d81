import { z } from 'zod';
import { type ClaimComment, heartbeat } from './liveness.js';
import { formatClaimTime } from './marker.js';
import { pathLineOf } from './paths.js';

/** A time as claims show it (docs/protocol.md §8): `YYYY-MM-DDTHH:MM:SSZ`, so times compare as strings. */
const ClaimTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

/**
 * The claim object of docs/protocol.md §8 in its key order, as the API, the work queue (§9)
 * and the MCP tools answer and the client reads it; parsing drops unknown keys.
 */
export const PublicClaim = z.object({
  issue: z.string(),
  commentId: z.number().int(),
  url: z.string(),
  author: z.string(),
  session: z.string(),
  lane: z.string(),
  branch: z.string(),
  stage: z.string(),
  started: ClaimTime,
  updated: ClaimTime,
  heartbeat: ClaimTime,
  staleAt: ClaimTime,
  assignee: z.string().nullable(),
  outcome: z.string().optional(),
  paths: z.array(z.string()).readonly().optional(),
});

/** The claim object of docs/protocol.md §8. */
export type PublicClaim = z.infer<typeof PublicClaim>;

/** The issue object of docs/protocol.md §9 in its key order; §8's answers add `state`. */
export const PublicIssue = z.object({
  repo: z.string(),
  number: z.number().int(),
  title: z.string(),
  url: z.string(),
  state: z.enum(['open', 'closed']).optional(),
  labels: z.array(z.string()).readonly(),
  assignees: z.array(z.string()).readonly(),
  createdAt: ClaimTime,
  updatedAt: ClaimTime,
});

/** The issue object of docs/protocol.md §9 (and §8's, with `state`). */
export type PublicIssue = z.infer<typeof PublicIssue>;

/** A claim's facts before its issue names it: the claim object less `issue`, no null assignee. */
export type ClaimFields = Omit<PublicClaim, 'issue' | 'assignee'> & { readonly assignee?: string };

/** The claim object of a claim of `issue` (`owner/name#n`): the one rendering of a claim. */
export function publicClaimOf(issue: string, claim: ClaimFields | PublicClaim): PublicClaim {
  return {
    issue,
    commentId: claim.commentId,
    url: claim.url,
    author: claim.author,
    session: claim.session,
    lane: claim.lane,
    branch: claim.branch,
    stage: claim.stage,
    started: claim.started,
    updated: claim.updated,
    heartbeat: claim.heartbeat,
    staleAt: claim.staleAt,
    assignee: claim.assignee ?? null,
    ...(claim.outcome ? { outcome: claim.outcome } : {}),
    ...(claim.paths ? { paths: claim.paths } : {}),
  };
}

/**
 * The first whole second at which a claim with this heartbeat is stale: docs/protocol.md §3,
 * exactly one window old is still live, one second more is stale.
 */
export function staleAtOf(beat: Date, staleAfterMs: number): string {
  return formatClaimTime(new Date(beat.getTime() + staleAfterMs + 1000));
}

/** A claim comment's facts: its marker, its valid path line (canonical), its author. */
export function claimFieldsOf(claim: ClaimComment, staleAfterMs: number): ClaimFields {
  const { comment, marker } = claim;
  const beat = heartbeat(claim);
  const line = pathLineOf(comment.body);
  return {
    commentId: comment.id,
    url: comment.url ?? '',
    author: comment.author,
    session: marker.session,
    lane: marker.lane,
    branch: marker.branch,
    stage: marker.stage,
    started: formatClaimTime(marker.started),
    updated: formatClaimTime(marker.updated),
    heartbeat: formatClaimTime(beat),
    staleAt: staleAtOf(beat, staleAfterMs),
    ...(marker.assignee ? { assignee: marker.assignee } : {}),
    ...(marker.outcome ? { outcome: marker.outcome } : {}),
    ...(line.kind === 'valid' ? { paths: line.paths } : {}),
  };
}
