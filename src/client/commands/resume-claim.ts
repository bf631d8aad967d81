import type { Action } from '../../claims/decide.js';
import { type ClaimComment, isLive } from '../../claims/liveness.js';
import { sameName } from '../../claims/names.js';
import { applyActions, hasLabel, isAssigned } from '../io/apply-actions.js';
import type { Desk } from '../io/desk.js';
import type { IssueState } from '../io/issue-state.js';
import type { ClaimRequest } from './claim.js';
import { describeClaim, viewIn } from './claim-view.js';
import { unverifiable } from './client-error.js';
import { type CommandResult, ok } from './command-result.js';
import { finaliseAction } from './finalise-action.js';
import { formatIssueRef } from './issue-ref.js';
import { publicIdentity } from './public-identity.js';

/**
 * `claim` by the session that already holds the issue: nothing is rewritten (seed: "a
 * resumed claim keeps the value its comment records"); the labels and the assignee the claim
 * recorded are put back if someone removed them, and the session's own newer live duplicates
 * are finalised. A failure here keeps the claim live: it is never finalised as abandoned.
 */
export async function resumeClaim(
  desk: Desk,
  state: IssueState,
  holder: ClaimComment,
  own: (claim: ClaimComment) => boolean,
  request: ClaimRequest,
  login: string,
): Promise<CommandResult> {
  const { labels, assign } = state.config;
  const actions: Action[] = [];
  // Own live duplicates (an earlier run's lost race) go; the oldest is the one that holds.
  for (const claim of state.claims) {
    if (claim === holder || !own(claim)) continue;
    if (!isLive(claim, true, state.config.staleAfterMs, state.now)) continue;
    actions.push(
      finaliseAction(desk, claim, {
        own: true,
        outcome: 'abandoned',
        reason: 'lost',
        text: `a duplicate of this session's older claim in comment ${holder.comment.id}`,
      }),
    );
  }
  const blocked = holder.marker.stage === 'blocked';
  if (blocked && !hasLabel(state, labels.blocked)) {
    actions.push({ kind: 'add-label', label: labels.blocked, role: 'blocked' });
  }
  if (!blocked && hasLabel(state, labels.blocked)) {
    actions.push({ kind: 'remove-label', label: labels.blocked });
  }
  if (!hasLabel(state, labels.inProgress)) {
    actions.push({ kind: 'add-label', label: labels.inProgress, role: 'inProgress' });
  }
  // The assignee the claim recorded as its own is put back; `before` is not ours to restore.
  const author = holder.comment.author;
  if (
    assign &&
    holder.marker.assignee === 'claim' &&
    sameName(author, login) &&
    !isAssigned(state, login)
  ) {
    actions.push({ kind: 'assign', login });
  }
  try {
    await applyActions(desk, state, actions);
  } catch (error) {
    // Seed: a failed resume keeps the claim live; it is never finalised as abandoned.
    throw unverifiable(
      `${formatIssueRef(state.ref)}: this session holds the claim in comment ${holder.comment.id}, but repairing its labels or assignee failed; run claim again`,
      { issue: formatIssueRef(state.ref), claim: viewIn(state, holder) },
      error,
    );
  }
  const view = viewIn(state, holder);
  const notes: string[] = [];
  if (holder.marker.branch !== request.branch) {
    notes.push(`the claim records branch ${holder.marker.branch}, not ${request.branch}`);
  }
  if (holder.marker.lane !== publicIdentity(desk.key, 'lane', request.lane)) {
    notes.push('the claim records another lane');
  }
  return ok(
    [
      `resumed ${formatIssueRef(state.ref)}: this session already holds it: ${describeClaim(view)}`,
      ...notes.map((note) => `Note: ${note}; status updates keep what the claim records.`),
    ].join('\n'),
    { issue: formatIssueRef(state.ref), action: 'resumed', claim: view },
  );
}
