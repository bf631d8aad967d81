import { z } from 'zod';
import { type ClaimComment, heartbeat } from './liveness.js';
import { formatClaimTime } from './marker.js';
import { pathLineOf } from './paths.js';
import type { PersonHolder } from './plan.js';

/** A time as claims show it (docs/protocol.md §8): `YYYY-MM-DDTHH:MM:SSZ`, so times compare as strings. */
const ClaimTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

/** The claim object's keys after the comment's, which both kinds have, in §8's order. */
const times = { stage: z.string(), started: ClaimTime, updated: ClaimTime, heartbeat: ClaimTime };
const tail = {
  assignee: z.string().nullable(),
  outcome: z.string().optional(),
  paths: z.array(z.string()).readonly().optional(),
};

/**
 * An agent's claim: a marker comment (docs/protocol.md §8). `kind` defaults to `agent`, so a
 * record an older version wrote (the open-issue index, an older app's answer) still reads.
 */
export const AgentClaim = z.object({
  issue: z.string(),
  kind: z.literal('agent').default('agent'),
  commentId: z.number().int(),
  url: z.string(),
  author: z.string(),
  session: z.string(),
  lane: z.string(),
  branch: z.string(),
  ...times,
  staleAt: ClaimTime,
  /**
   * With `grace` on (docs/protocol.md §17): until when the claim holds the issue against other
   * sessions unless renewed; between `staleAt` and this it is in grace.
   */
  graceUntil: ClaimTime.optional(),
  ...tail,
});

/**
 * A person's claim: an assignment (docs/protocol.md §16). No comment, session, lane or branch;
 * `started` is the assignment, `heartbeat` the person's latest activity, and `staleAt` null
 * when the claim does not expire (pinned, or exempt by `people.expire`).
 */
export const PersonClaim = z.object({
  issue: z.string(),
  kind: z.literal('person'),
  commentId: z.null(),
  url: z.string(),
  author: z.string(),
  session: z.null(),
  lane: z.null(),
  branch: z.null(),
  ...times,
  staleAt: ClaimTime.nullable(),
  ...tail,
});

/**
 * The claim object of docs/protocol.md §8 (§16: of either kind) in its key order, as the API,
 * the work queue (§9) and the MCP tools answer and the client reads it; parsing drops unknown
 * keys.
 */
export const PublicClaim = z.union([AgentClaim, PersonClaim]);

/** The claim object of docs/protocol.md §8. */
export type PublicClaim = z.infer<typeof PublicClaim>;
export type AgentClaim = z.infer<typeof AgentClaim>;
export type PersonClaim = z.infer<typeof PersonClaim>;

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
  /** docs/protocol.md §17: it carries the needs-review label (the work queue says so). */
  needsReview: z.boolean().optional(),
});

/** The issue object of docs/protocol.md §9 (and §8's, with `state`). */
export type PublicIssue = z.infer<typeof PublicIssue>;

/** A claim's facts before its issue names it: the claim object less `issue`, no null assignee. */
type FieldsOf<T> = Omit<T, 'issue' | 'assignee' | 'kind'> & { readonly assignee?: string };

/** An agent claim's facts; `kind` may be absent in what an older version kept. */
type AgentClaimFields = FieldsOf<AgentClaim> & { readonly kind?: 'agent' };
type PersonClaimFields = FieldsOf<PersonClaim> & { readonly kind: 'person' };
export type ClaimFields = AgentClaimFields | PersonClaimFields;

/** Whether a claim (its object or its facts, of any version) is a person's (§16). */
export function isPersonClaim<T extends { readonly kind?: string }>(
  claim: T,
): claim is T & { readonly kind: 'person' } {
  return claim.kind === 'person';
}

/** The claim object of a claim of `issue` (`owner/name#n`): the one rendering of a claim. */
export function publicClaimOf(issue: string, claim: ClaimFields | PublicClaim): PublicClaim {
  const tail = {
    stage: claim.stage,
    started: claim.started,
    updated: claim.updated,
    heartbeat: claim.heartbeat,
  };
  const extra = {
    assignee: claim.assignee ?? null,
    ...(claim.outcome ? { outcome: claim.outcome } : {}),
    ...(claim.paths ? { paths: claim.paths } : {}),
  };
  if (isPersonClaim(claim)) {
    const { url, author, staleAt } = claim;
    const none = { commentId: null, url, author, session: null, lane: null, branch: null };
    return { issue, kind: 'person', ...none, ...tail, staleAt, ...extra };
  }
  const { commentId, url, author, session, lane, branch, staleAt, graceUntil } = claim;
  const agent = { commentId, url, author, session, lane, branch };
  const grace = graceUntil ? { graceUntil } : {};
  return { issue, kind: 'agent', ...agent, ...tail, staleAt, ...grace, ...extra };
}

/**
 * A person's assignment as claim facts (docs/protocol.md §16): the issue's page as its url,
 * `stage` claimed and `updated` its heartbeat (an assignment has no marker), and no stale
 * time when it does not expire.
 */
export function personClaimFieldsOf(holder: PersonHolder, staleAfterMs: number): PersonClaimFields {
  const beat = formatClaimTime(holder.heartbeat);
  return {
    kind: 'person',
    commentId: null,
    url: holder.url ?? '',
    author: holder.author,
    session: null,
    lane: null,
    branch: null,
    stage: 'claimed',
    started: formatClaimTime(holder.started),
    updated: beat,
    heartbeat: beat,
    staleAt: holder.expires ? staleAtOf(holder.heartbeat, staleAfterMs) : null,
  };
}

/**
 * The first whole second at which a claim with this heartbeat is stale: docs/protocol.md §3,
 * exactly one window old is still live, one second more is stale.
 */
export function staleAtOf(beat: Date, staleAfterMs: number): string {
  return formatClaimTime(new Date(beat.getTime() + staleAfterMs + 1000));
}

/**
 * A claim comment's facts: its marker, its valid path line (canonical), its author; with a
 * grace (docs/protocol.md §17), when it stops holding the issue against other sessions.
 */
export function claimFieldsOf(
  claim: ClaimComment,
  staleAfterMs: number,
  graceMs = 0,
): AgentClaimFields {
  const { comment, marker } = claim;
  const beat = heartbeat(claim);
  const line = pathLineOf(comment.body);
  return {
    kind: 'agent',
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
    ...(graceMs > 0 ? { graceUntil: staleAtOf(beat, staleAfterMs + graceMs) } : {}),
    ...(marker.assignee ? { assignee: marker.assignee } : {}),
    ...(marker.outcome ? { outcome: marker.outcome } : {}),
    ...(line.kind === 'valid' ? { paths: line.paths } : {}),
  };
}
