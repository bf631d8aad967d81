import { type Claimant, type ClaimState, hasLabel, isAssigned } from './claim-state.js';
import { finaliseAction } from './finalise-action.js';
import { reclaimedText } from './grace.js';
import { type ClaimDecision, judgeAttempt, type Publish } from './judge-attempt.js';
import { type ClaimComment, staleSince } from './liveness.js';
import { formatClaimTime } from './marker.js';
import { sameName } from './names.js';
import type { Action } from './plan.js';
import { type Losers, planLosers } from './plan-losers.js';
import { ownedBy, publicIdentity } from './public-identity.js';
import type { ClaimMarker } from './types.js';

/** A session's claim: who it is and where it works, already validated. */
interface ClaimRequest {
  readonly session: string;
  readonly lane: string;
  readonly branch: string;
  /** The account the session's token belongs to: the claim comment's author. */
  readonly login: string;
  /** The paths the claim names, checked with checkPathEntries: its path line (docs/protocol.md §10). */
  readonly paths?: readonly string[];
}

/** What claiming an issue comes to, read off one state of it. */
export type ClaimPlan =
  /** The issue is closed: only an open issue is claimable; nothing is written. */
  | { readonly kind: 'closed' }
  /**
   * The session holds it already: nothing is rewritten; `actions` repair the labels and the
   * assignee the claim recorded, and finalise the session's own newer live duplicates.
   */
  | { readonly kind: 'resume'; readonly holder: ClaimComment; readonly actions: readonly Action[] }
  /** Another session holds it: `actions` finalise the session's own losing live claims. */
  | ({ readonly kind: 'held' } & Losers)
  /** Another session's stale claim is in its grace (docs/protocol.md §17): nothing is written. */
  | Extract<ClaimDecision, { kind: 'in-grace' }>
  /** Nobody holds it: post `comment`, then apply `writes` of the id GitHub gave it. */
  | {
      readonly kind: 'post';
      /** The new claim comment: the session's own write. */
      readonly comment: Extract<Action, { kind: 'post-claim' }>;
      readonly marker: ClaimMarker;
      /** The unreleased claims this one takes over, all stale, oldest (the replaced) first. */
      readonly stale: readonly ClaimComment[];
      /** What the claim's writes change on the issue, so a failure can undo exactly that. */
      readonly changes: { readonly addedLabel: boolean; readonly assigned: boolean };
      /**
       * The state actions once the comment is posted (the stale claims' reasons name
       * its id): stale claims finalised, labels set, the account assigned, and the replaced
       * claims' `assignee=claim` authors unassigned. Applied with whatever token may write
       * labels and assignees.
       */
      writes(postedId: number): readonly Action[];
    };

/**
 * Claiming an issue for a session (Praetor protocol, "What a claim writes", "Refusal, takeover and the
 * stale window"), planned from one state of it. Pure: the state, the request, the claimant's
 * key and the clock in; what to write out. Labels and assignees follow decide()'s rules, so
 * the issue reads the same whether the app or the session wrote it.
 */
export function planClaim(
  state: ClaimState,
  request: ClaimRequest,
  claimant: Claimant,
  now: Date,
): ClaimPlan {
  const own = ownedBy(claimant.key, request.session);
  const publish: Publish = (kind, value) => publicIdentity(claimant.key, kind, value);
  const decision = judgeAttempt(state, request, own, publish, now);
  switch (decision.kind) {
    case 'closed':
    case 'in-grace':
      return decision;
    case 'resume': {
      const { holder } = decision;
      return {
        kind: 'resume',
        holder,
        actions: resumeActions(state, holder, own, request, claimant, now),
      };
    }
    case 'held':
      return { kind: 'held', ...planLosers(state, decision.holder, own, claimant, now) };
    case 'post':
      return postPlan(state, decision, request.login, own, claimant, now);
  }
}

function resumeActions(
  state: ClaimState,
  holder: ClaimComment,
  own: (claim: ClaimComment) => boolean,
  request: ClaimRequest,
  claimant: Claimant,
  now: Date,
): Action[] {
  const { labels, assign } = state.config;
  // Own live duplicates (an earlier run's lost race) go; the oldest is the one that holds.
  const duplicate = `a duplicate of this session's older claim in comment ${holder.comment.id}`;
  const actions = [...planLosers(state, holder, own, claimant, now, duplicate).actions];
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
  const { login } = request;
  if (
    assign &&
    holder.marker.assignee === 'claim' &&
    sameName(holder.comment.author, login) &&
    !isAssigned(state, login)
  ) {
    actions.push({ kind: 'assign', login });
  }
  return actions;
}

/** No live holder: a new claim (a takeover when stale claims remain), and its writes. */
function postPlan(
  state: ClaimState,
  { marker, body, stale, changes, reclaimed }: Extract<ClaimDecision, { kind: 'post' }>,
  login: string,
  own: (claim: ClaimComment) => boolean,
  claimant: Claimant,
  now: Date,
): ClaimPlan {
  const { labels, staleAfterMs } = state.config;
  return {
    kind: 'post',
    comment: { kind: 'post-claim', body },
    marker,
    stale,
    changes,
    writes(postedId) {
      const actions: Action[] = stale.map((claim) => {
        if (claim === reclaimed) {
          // docs/protocol.md §17: the session's own claim in grace is handed over to the new one.
          const text = reclaimedText(postedId);
          const spec = {
            own: own(claim),
            outcome: 'handed-over',
            reason: 'reclaimed',
            text,
          } as const;
          return finaliseAction(claimant, claim, spec, now);
        }
        const since = formatClaimTime(staleSince(claim, staleAfterMs, state.now));
        const text = `stale since ${since}; taken over by comment ${postedId} (session ${marker.session})`;
        const spec = { own: own(claim), outcome: 'abandoned', reason: 'stale', text } as const;
        return finaliseAction(claimant, claim, spec, now);
      });
      // The new claim's stage is `claimed`, so a blocked label left by a stale claim goes.
      if (hasLabel(state, labels.blocked)) {
        actions.push({ kind: 'remove-label', label: labels.blocked });
      }
      if (changes.addedLabel) {
        actions.push({ kind: 'add-label', label: labels.inProgress, role: 'inProgress' });
      }
      if (changes.assigned) actions.push({ kind: 'assign', login });
      // docs/protocol.md §4, as decide() does it: an account whose finalised claim recorded
      // `assignee=claim` is unassigned unless it holds the issue.
      for (const author of takenOverAssignees(state, stale, login)) {
        actions.push({ kind: 'unassign', login: author });
      }
      return actions;
    },
  };
}

/** The assigned authors of replaced stale claims that recorded `assignee=claim`, once each. */
function takenOverAssignees(
  state: ClaimState,
  stale: readonly ClaimComment[],
  login: string,
): string[] {
  const authors = new Map<string, string>();
  for (const claim of stale) {
    const author = claim.comment.author;
    if (claim.marker.assignee !== 'claim' || sameName(author, login)) continue;
    const assigned = state.thread.assignees.find((a) => sameName(a, author));
    if (assigned) authors.set(author.toLowerCase(), assigned);
  }
  return [...authors.values()];
}
