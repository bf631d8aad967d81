import { administrativeRemoval } from './administrative-removal.js';
import { assigneeActions } from './assignee-actions.js';
import type { BranchWork } from './branch-work.js';
import { editClaimBody } from './claim-body.js';
import { releasedClaim } from './comment.js';
import type { DecideConfig } from './decide-config.js';
import { expiryNote, hasExpiryNote } from './expiry-note.js';
import { gracedClaim, settleGrace } from './grace.js';
import { holderSummary } from './holder-summary.js';
import type { IssueFacts } from './issue-facts.js';
import { labelActions } from './label-actions.js';
import { type ClaimComment, findHolder, isStale, staleAt, staleSince } from './liveness.js';
import { lostTo } from './lost-to.js';
import { formatClaimTime } from './marker.js';
import type { PeopleVerdict } from './people-verdict.js';
import { personFinalising } from './person-finalising.js';
import type { Action, Plan } from './plan.js';
import { gateContenders, reviewGate, reviewLabelActions } from './review.js';
import { trustedClaims } from './trusted-claims.js';
import type { Outcome } from './types.js';
import { type Finalising, withoutPathLosers } from './without-path-losers.js';

/**
 * Decides what makes docs/protocol.md §4 true for one issue. Pure: the thread, the config and the clock
 * in; a Plan out. Emits no action that the current state already satisfies. `people` is what
 * the rules of people's claims settled (src/people/); without it, agents' claims alone count.
 */
export function decide(
  facts: IssueFacts,
  config: DecideConfig,
  now: Date,
  people: PeopleVerdict = {},
): Plan {
  // docs/protocol.md §2: claims live on issues only.
  if (facts.isPullRequest) return { actions: [], holder: null, deadline: null, waitlist: [] };

  const claims = trustedClaims(facts.comments, config.trustedBots);
  const reverted = new Map<number, Outcome | undefined>();
  for (const hint of facts.hints) {
    if (hint.kind === 'release-reverted') reverted.set(hint.commentId, hint.outcome);
  }

  const finalising: Finalising[] = [];
  const notes: Action[] = [];
  const unreleased = claims.filter((claim) => claim.marker.stage !== 'released');

  // docs/protocol.md §3: `released` is final, so a released comment edited back to a live stage is
  // finalised again, with the outcome it had.
  const candidates: ClaimComment[] = [];
  for (const claim of unreleased) {
    if (reverted.has(claim.comment.id)) {
      finalising.push({
        claim,
        outcome: reverted.get(claim.comment.id) ?? 'abandoned',
        reason: 'release-final',
        text: 'a released claim is final; it was edited back to a live stage',
      });
    } else {
      candidates.push(claim);
    }
  }

  // docs/protocol.md §16: a pinned holder, the oldest claim that may still hold, never goes stale.
  const pinned = people.pinned ? candidates[0] : undefined;
  // Stale claims first: they can never hold (docs/protocol.md §3 and §4).
  const fresh: ClaimComment[] = [];
  const reviewed: { claim: ClaimComment; work: BranchWork }[] = [];
  // docs/protocol.md §17: the oldest stale claim, with no live one before it, still holds
  // against other sessions during its grace; the sweep finalises it when that ends.
  const graced = gracedClaim(candidates, facts, config, now, pinned);
  for (const claim of candidates) {
    if (claim === pinned || !isStale(claim, config.staleAfterMs, now)) {
      fresh.push(claim);
      continue;
    }
    if (claim === graced?.claim) continue;
    const since = formatClaimTime(staleSince(claim, config.staleAfterMs, now));
    // docs/protocol.md §17: a stale branch with work sends the issue to review (its note is
    // the record of whose work it is, so it is posted whatever notifyOnExpiry says).
    const work = (facts.open && facts.review?.get(claim.comment.id)) || undefined;
    if (work) reviewed.push({ claim, work });
    const text = `stale since ${since}${work ? `; its work on ${work.branch} awaits review` : ''}`;
    finalising.push({ claim, outcome: 'abandoned', reason: 'stale', text });
    if ((config.notifyOnExpiry || work) && facts.open && !hasExpiryNote(facts, claim.comment.id)) {
      notes.push({
        kind: 'post-note',
        forCommentId: claim.comment.id,
        body: expiryNote(claim, since, config.notify ?? [], work),
      });
    }
  }

  // docs/protocol.md §10: on an open issue, a claim whose paths overlap a holder of another
  // issue with a lower comment id loses; the next live claim is then the candidate.
  const unpathed = facts.open ? withoutPathLosers(fresh, facts, config, finalising, notes) : fresh;
  const grace = graced && settleGrace(graced, unpathed, finalising);
  // docs/protocol.md §17: a needs-review issue admits only its owner's return.
  const gate = facts.open ? reviewGate(facts, config, reviewed) : null;
  const contenders = gateContenders(
    gate,
    facts,
    config,
    grace ? grace.contenders : unpathed,
    finalising,
  );
  // The holder as if the issue were open: on a closed issue it is the claim that lands.
  let holder =
    grace?.holder ??
    findHolder(
      contenders,
      true,
      config.staleAfterMs,
      now,
      pinned && contenders.includes(pinned) ? pinned : undefined,
    );
  const person = facts.open ? (people.person ?? people.hosted) : undefined;
  if (holder && !facts.open) {
    const landed = facts.stateReason === 'completed';
    finalising.push({
      claim: holder,
      outcome: landed ? 'landed' : 'abandoned',
      reason: 'closed',
      text: landed ? 'the issue was closed as completed' : 'the issue was closed',
    });
  } else if (holder && person) {
    finalising.push(personFinalising(holder, person, true));
  } else if (holder) {
    const removal = administrativeRemoval(facts, config, holder);
    if (removal) {
      finalising.push({
        claim: holder,
        outcome: 'abandoned',
        reason: 'administrative',
        text: `released by @${removal.by}, who removed the label ${removal.label}`,
      });
    }
  }
  for (const claim of contenders) {
    if (claim === holder) continue;
    finalising.push(
      person
        ? personFinalising(claim, person, false)
        : {
            claim,
            outcome: 'abandoned',
            reason: 'lost',
            text: holder ? lostTo(holder) : 'lost to an older claim',
          },
    );
  }
  if (finalising.some((f) => f.claim === holder)) holder = null;

  const actions: Action[] = [...notes];
  const workOf = new Map(reviewed.map(({ claim, work }) => [claim, work]));
  for (const { claim, outcome, reason, text } of finalising.sort(
    (a, b) => a.claim.comment.id - b.claim.comment.id,
  )) {
    const work = workOf.get(claim);
    const finalised = releasedClaim(claim.marker, outcome, now);
    actions.push({
      kind: 'finalise',
      commentId: claim.comment.id,
      body: editClaimBody(claim.comment.body, { marker: finalised, reason: text }),
      reason,
      outcome,
      ...(work ? { review: work } : {}),
    });
  }
  actions.push(...labelActions(facts, config, holder, finalising.length > 0, person !== undefined));
  actions.push(
    ...reviewLabelActions(facts, config, gate, holder?.comment.author ?? person?.login ?? null),
  );
  actions.push(...assigneeActions(facts, config, claims, holder));

  const inGrace = holder !== null && holder === graced?.claim ? graced.until : null;
  return {
    actions,
    holder: holder && { ...holderSummary(holder), ...(inGrace ? { graceUntil: inGrace } : {}) },
    deadline:
      inGrace ?? (holder && holder !== pinned ? staleAt(holder, config.staleAfterMs) : null),
    waitlist: [],
  };
}
