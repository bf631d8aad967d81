import type { DecideConfig } from './decide-config.js';
import { type ClaimComment, heartbeat, isLive, isSkewed, isStale } from './liveness.js';
import { formatClaimTime } from './marker.js';
import { sameName } from './names.js';
import type { Finalising } from './without-path-losers.js';

/** The part of the repository config the grace of docs/protocol.md §17 reads. */
type GraceConfig = Pick<DecideConfig, 'staleAfterMs' | 'graceMs'>;

/**
 * A stale claim that still holds its issue against every other session (docs/protocol.md §17
 * "Grace for the owner"), and the moment that ends: one millisecond past `grace` after it went
 * stale, as staleAt is one past the stale window.
 */
export interface GraceHold {
  readonly claim: ClaimComment;
  readonly until: Date;
}

/**
 * When the claim's grace ends (the first millisecond it no longer holds), or null when the
 * repository has no grace. Counted from when it goes stale by age: one window after its
 * heartbeat.
 */
function graceEnd(claim: ClaimComment, config: GraceConfig): Date | null {
  const graceMs = config.graceMs ?? 0;
  if (graceMs <= 0) return null;
  return new Date(heartbeat(claim).getTime() + config.staleAfterMs + graceMs + 1);
}

/**
 * Whether a claim is in its grace at `now`: unreleased, stale by age, and the grace not over.
 * A claim over the clock-skew cap of docs/protocol.md §3 gets none: its clock is broken, and
 * every reader must agree on the holder.
 */
function isInGrace(claim: ClaimComment, config: GraceConfig, now: Date): boolean {
  if (claim.marker.stage === 'released') return false;
  if (!isStale(claim, config.staleAfterMs, now) || isSkewed(claim, config.staleAfterMs, now)) {
    return false;
  }
  const end = graceEnd(claim, config);
  return end !== null && now.getTime() < end.getTime();
}

/**
 * The claim in grace of an open issue, as every reader sees it (docs/protocol.md §17): the
 * oldest unreleased claim past its stale window but within its grace, when no older claim is
 * live. A live claim older than it holds the issue itself. `claims` are trusted claims, oldest
 * first; `pinned` as issueHolder.
 */
export function graceHold(
  claims: readonly ClaimComment[],
  issue: { readonly open: boolean },
  config: GraceConfig,
  now: Date,
  pinned?: ClaimComment,
): GraceHold | null {
  if (!issue.open || (config.graceMs ?? 0) <= 0) return null;
  for (const claim of claims) {
    if (claim.marker.stage === 'released') continue;
    if (isLive(claim, true, config.staleAfterMs, now, pinned)) return null;
    if (isInGrace(claim, config, now)) {
      const until = graceEnd(claim, config);
      return until && { claim, until };
    }
  }
  return null;
}

/**
 * The claim decide() leaves in its grace (docs/protocol.md §17): the first stale claim of
 * `candidates` (unreleased, oldest first) that is in its grace with no fresh or pinned claim
 * before it, on an open issue. Every other stale candidate is finalised now. Shared by
 * decide() and the review reads, so a claim in grace costs no compare.
 */
export function gracedClaim(
  candidates: readonly ClaimComment[],
  issue: { readonly open: boolean },
  config: GraceConfig,
  now: Date,
  pinned?: ClaimComment,
): GraceHold | null {
  if (!issue.open) return null;
  for (const claim of candidates) {
    if (claim === pinned || !isStale(claim, config.staleAfterMs, now)) return null;
    const until = graceEnd(claim, config);
    if (until && isInGrace(claim, config, now)) return { claim, until };
  }
  return null;
}

/** Whether `claim` is a new claim of the same author and session as the claim in grace. */
function isOwnersReturn(hold: GraceHold, claim: ClaimComment): boolean {
  return (
    claim.comment.id !== hold.claim.comment.id &&
    sameName(claim.comment.author, hold.claim.comment.author) &&
    claim.marker.session === hold.claim.marker.session
  );
}

/**
 * What a claim in grace makes of the live claims posted after it (docs/protocol.md §17):
 * the first by the same author and session takes over (`takeover`, and the claims from it on
 * contend as usual, `rest`); every claim of another session before it is refused
 * (`refused`). With no takeover the claim in grace keeps the issue and every later claim is
 * refused. Pure.
 */
function graceVerdict(
  hold: GraceHold,
  later: readonly ClaimComment[],
): { takeover: ClaimComment | null; refused: ClaimComment[]; rest: ClaimComment[] } {
  const at = later.findIndex((claim) => isOwnersReturn(hold, claim));
  if (at === -1) return { takeover: null, refused: [...later], rest: [] };
  return { takeover: later[at]!, refused: later.slice(0, at), rest: later.slice(at) };
}

/**
 * The end of the grace as claims show it (`graceUntil`, docs/protocol.md §8 times): the first
 * whole second the claim no longer holds, as staleAtOf is for `staleAt`.
 */
export function graceUntilOf(until: Date): string {
  return formatClaimTime(new Date(until.getTime() - 1 + 1000));
}

/** The reason line of a claim refused while another is in grace. */
function inGraceText(hold: GraceHold): string {
  return `in grace for @${hold.claim.comment.author}'s session until ${graceUntilOf(hold.until)}`;
}

/** The reason line of a claim in grace that its own session claimed again. */
export function reclaimedText(takeoverId: number): string {
  return `stale, and claimed again by its own session in comment ${takeoverId} within the grace`;
}

/**
 * decide()'s part of docs/protocol.md §17: the claim in grace and the live claims after it.
 * Pushes the refused ones (abandoned, reason `grace`) and, on a takeover, the claim in grace
 * (handed over, reason `reclaimed`) onto `finalising`. Returns the holder when the claim in
 * grace keeps the issue, and the claims still contending for it.
 */
export function settleGrace(
  hold: GraceHold,
  later: readonly ClaimComment[],
  finalising: Finalising[],
): { holder: ClaimComment | null; contenders: ClaimComment[] } {
  const { takeover, refused, rest } = graceVerdict(hold, later);
  const text = inGraceText(hold);
  for (const claim of refused) {
    finalising.push({ claim, outcome: 'abandoned', reason: 'grace', text });
  }
  if (takeover === null) return { holder: hold.claim, contenders: [] };
  finalising.push({
    claim: hold.claim,
    outcome: 'handed-over',
    reason: 'reclaimed',
    text: reclaimedText(takeover.comment.id),
  });
  return { holder: null, contenders: rest };
}
