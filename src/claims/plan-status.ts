import { type Claimant, type ClaimState, hasLabel } from './claim-state.js';
import type { ClaimComment } from './liveness.js';
import { ownClaimBody } from './own-claim-body.js';
import type { Action } from './plan.js';
import { type NotHeld, planLosers } from './plan-losers.js';
import { ownedBy, taggedMarker } from './public-identity.js';
import type { Stage } from './types.js';

/** A status request: without a stage it only reports. */
export interface StatusRequest {
  readonly session: string;
  /** Any stage but `released` (that is release's). */
  readonly stage?: Stage | undefined;
  readonly note?: string | undefined;
}

/** What recording (or reporting) a session's stage comes to, read off one state. */
export type StatusPlan =
  /** No stage asked, and the session holds the issue: report it, write nothing. */
  | { readonly kind: 'report'; readonly holder: ClaimComment }
  /** The session holds no claim to write, or its live claims lost to another session's. */
  | NotHeld
  /**
   * The session holds it: `comment` rewrites its claim comment with the stage (the session's
   * own write), then `actions` set the status labels and finalise its own live duplicates.
   */
  | {
      readonly kind: 'update';
      readonly holder: ClaimComment;
      readonly comment: Extract<Action, { kind: 'edit-claim' }>;
      readonly actions: readonly Action[];
    };

/**
 * Recording a stage on the session's own claim, in place (docs/protocol.md §1: every
 * later stage edits the one comment in place), or, without a stage, reporting it. `blocked` adds the blocked
 * label, any other stage removes it. A session that does not hold the issue writes nothing,
 * except that its own live comments that lost to the holder are finalised as abandoned (docs/protocol.md
 * §4; docs/agents.md, "Races, in short"). Pure: state, request, claimant and clock in.
 */
export function planStatus(
  state: ClaimState,
  request: StatusRequest,
  claimant: Claimant,
  now: Date,
): StatusPlan {
  const own = ownedBy(claimant.key, request.session);
  const { holder } = state;
  const holds = holder !== null && own(holder);
  if (request.stage === undefined) {
    // Read-only (docs/agents.md, "Commands": `status` without `--stage`): report the holder, change nothing, not even a losing comment.
    return holds
      ? { kind: 'report', holder }
      : { kind: 'not-holding', own: state.claims.filter(own) };
  }
  if (!holds) {
    const lost = holder && planLosers(state, holder, own, claimant, now);
    if (lost && lost.losers.length > 0) return { kind: 'lost', ...lost };
    return { kind: 'not-holding', own: state.claims.filter(own) };
  }
  const { key } = claimant;
  const marker = { ...taggedMarker(holder.marker, key), stage: request.stage, updated: now };
  // A note describes this stage, so a stage without one drops the previous note.
  const body = ownClaimBody(marker, {
    key,
    guard: claimant.guard,
    previousBody: holder.comment.body,
    note: request.note,
  });
  const duplicate = `a duplicate of this session's older claim in comment ${holder.comment.id}`;
  const actions = [...planLosers(state, holder, own, claimant, now, duplicate).actions];
  const { labels } = state.config;
  if (!hasLabel(state, labels.inProgress)) {
    actions.push({ kind: 'add-label', label: labels.inProgress, role: 'inProgress' });
  }
  const blocked = request.stage === 'blocked';
  if (blocked && !hasLabel(state, labels.blocked)) {
    actions.push({ kind: 'add-label', label: labels.blocked, role: 'blocked' });
  }
  if (!blocked && hasLabel(state, labels.blocked)) {
    actions.push({ kind: 'remove-label', label: labels.blocked });
  }
  return {
    kind: 'update',
    holder,
    comment: { kind: 'edit-claim', commentId: holder.comment.id, body },
    actions,
  };
}
