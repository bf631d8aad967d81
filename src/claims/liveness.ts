import type { ClaimMarker, ThreadComment } from './types.js';

/** A comment of the thread that carries a valid marker, with the facts liveness needs. */
export interface ClaimComment {
  readonly comment: ThreadComment;
  readonly marker: ClaimMarker;
}

/**
 * The heartbeat of a claim: the earlier of the marker's `updated` and the comment's
 * `updated_at` (docs/protocol.md §3), so no client can claim a fresher heartbeat than GitHub recorded.
 */
export function heartbeat(claim: ClaimComment): Date {
  const fromMarker = claim.marker.updated.getTime();
  const fromGitHub = claim.comment.updatedAt.getTime();
  return new Date(Math.min(fromMarker, fromGitHub));
}

/**
 * Whether a claim is stale at `now` (docs/protocol.md §3): its heartbeat is more than one
 * window old (exactly one window old is still live), or its marker's own `updated` lies more
 * than one window ahead of now (the clock-skew cap). The cap reads the marker, not the
 * heartbeat: GitHub's `updated_at` is never in the future, so a heartbeat can never be, and
 * a cap on it could never fire. A client clock that far off is broken, and every reader must
 * agree on the holder.
 */
export function isStale(claim: ClaimComment, staleAfterMs: number, now: Date): boolean {
  const age = now.getTime() - heartbeat(claim).getTime();
  return age > staleAfterMs || isSkewed(claim, staleAfterMs, now);
}

/** The clock-skew cap of docs/protocol.md §3: the marker's `updated` is over a window ahead. */
export function isSkewed(claim: ClaimComment, staleAfterMs: number, now: Date): boolean {
  return claim.marker.updated.getTime() - now.getTime() > staleAfterMs;
}

/**
 * When a stale claim went stale, for the reason line "stale since T": one window after its
 * heartbeat, or, for a claim over the clock-skew cap, its heartbeat itself. GitHub recorded
 * that comment in the past, so its marker was already more than a window ahead then.
 */
export function staleSince(claim: ClaimComment, staleAfterMs: number, now: Date): Date {
  const beat = heartbeat(claim).getTime();
  return new Date(isSkewed(claim, staleAfterMs, now) ? beat : beat + staleAfterMs);
}

/**
 * The moment a live claim turns stale: one millisecond past one window after its heartbeat.
 * GitHub times have whole seconds, so this is within a second of the rule's "one second
 * more". The clock-skew cap never fires later: a marker's lead over the clock only shrinks.
 */
export function staleAt(claim: ClaimComment, staleAfterMs: number): Date {
  return new Date(heartbeat(claim).getTime() + staleAfterMs + 1);
}

/**
 * docs/protocol.md §3: live when not released, the issue is open, and not stale; `pinned` is
 * the claim a pin exempts from going stale (§16, pinnedClaim), so it stays live past its
 * window on every surface alike.
 */
export function isLive(
  claim: ClaimComment,
  issueOpen: boolean,
  staleAfterMs: number,
  now: Date,
  pinned?: ClaimComment,
): boolean {
  if (!issueOpen || claim.marker.stage === 'released') return false;
  return claim.comment.id === pinned?.comment.id || !isStale(claim, staleAfterMs, now);
}

/**
 * docs/protocol.md §3: the holder is the oldest live claim by comment id; there is at most one.
 * `pinned` as isLive.
 */
export function findHolder(
  claims: readonly ClaimComment[],
  issueOpen: boolean,
  staleAfterMs: number,
  now: Date,
  pinned?: ClaimComment,
): ClaimComment | null {
  let holder: ClaimComment | null = null;
  for (const claim of claims) {
    if (!isLive(claim, issueOpen, staleAfterMs, now, pinned)) continue;
    if (holder === null || claim.comment.id < holder.comment.id) holder = claim;
  }
  return holder;
}
