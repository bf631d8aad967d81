import type { ClaimMarker, ThreadComment } from './types.js';

/** A comment of the thread that carries a valid marker, with the facts liveness needs. */
export interface ClaimComment {
  readonly comment: ThreadComment;
  readonly marker: ClaimMarker;
}

/**
 * The heartbeat of a claim: the earlier of the marker's `updated` and the comment's
 * `updated_at` (SPEC §3), so no client can claim a fresher heartbeat than GitHub recorded.
 */
export function heartbeat(claim: ClaimComment): Date {
  const fromMarker = claim.marker.updated.getTime();
  const fromGitHub = claim.comment.updatedAt.getTime();
  return new Date(Math.min(fromMarker, fromGitHub));
}

/**
 * Whether a claim is stale at `now` (SPEC §3): its heartbeat is more than one window old
 * (exactly one window old is still live), or more than one window in the future (the
 * clock-skew cap, so a client with a fast clock cannot hold an issue for ever).
 */
export function isStale(claim: ClaimComment, staleAfterMs: number, now: Date): boolean {
  const age = now.getTime() - heartbeat(claim).getTime();
  return age > staleAfterMs || -age > staleAfterMs;
}

/**
 * The moment a live claim turns stale: one millisecond past one window after its heartbeat.
 * GitHub times have whole seconds, so this is within a second of SPEC's "one second more".
 */
export function staleAt(claim: ClaimComment, staleAfterMs: number): Date {
  return new Date(heartbeat(claim).getTime() + staleAfterMs + 1);
}

/** SPEC §3: live when not released, the issue is open, and not stale. */
export function isLive(
  claim: ClaimComment,
  issueOpen: boolean,
  staleAfterMs: number,
  now: Date,
): boolean {
  return issueOpen && claim.marker.stage !== 'released' && !isStale(claim, staleAfterMs, now);
}

/** SPEC §3: the holder is the oldest live claim by comment id; there is at most one. */
export function findHolder(
  claims: readonly ClaimComment[],
  issueOpen: boolean,
  staleAfterMs: number,
  now: Date,
): ClaimComment | null {
  let holder: ClaimComment | null = null;
  for (const claim of claims) {
    if (!isLive(claim, issueOpen, staleAfterMs, now)) continue;
    if (holder === null || claim.comment.id < holder.comment.id) holder = claim;
  }
  return holder;
}
