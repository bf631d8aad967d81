import type { BranchWork } from './branch-work.js';
import type { DecideConfig } from './decide-config.js';
import { gracedClaim } from './grace.js';
import type { IssueFacts } from './issue-facts.js';
import { type ClaimComment, isStale } from './liveness.js';
import { hasName, sameName } from './names.js';
import type { Action } from './plan.js';
import { trustedClaims } from './trusted-claims.js';
import type { Finalising } from './without-path-losers.js';

/** The label a review puts on the issue when the config names none. */
export const DEFAULT_NEEDS_REVIEW_LABEL = 'status:needs-review';

/** The needs-review label of a config. */
export function needsReviewLabel(config: DecideConfig): string {
  return config.labels.needsReview ?? DEFAULT_NEEDS_REVIEW_LABEL;
}

/** One branch the edge must read before decide() may finalise a stale claim. */
interface ReviewRead {
  readonly commentId: number;
  readonly branch: string;
}

/**
 * Pure: the stale, unreleased trusted claims of an open issue whose branch must be read for
 * work before they are finalised (docs/protocol.md §17: a read only when it decides
 * something). Left out: a claim in its grace (it still holds, and the sweep comes back when
 * the grace ends), and a released claim edited back to a live stage (finalised as it was,
 * §3). A closed issue reads nothing: a stale claim there changes nothing about review. Pinned
 * claims never go stale, so they are the edge's to leave out.
 */
export function reviewReads(facts: IssueFacts, config: DecideConfig, now: Date): ReviewRead[] {
  if (!facts.open || facts.isPullRequest) return [];
  const reverted = new Set(
    facts.hints.flatMap((h) => (h.kind === 'release-reverted' ? [h.commentId] : [])),
  );
  const candidates = trustedClaims(facts.comments, config.trustedBots).filter(
    (c) => c.marker.stage !== 'released' && !reverted.has(c.comment.id),
  );
  const graced = gracedClaim(candidates, facts, config, now)?.claim;
  return candidates
    .filter((c) => c !== graced && isStale(c, config.staleAfterMs, now))
    .map((c) => ({ commentId: c.comment.id, branch: c.marker.branch }));
}

/** The hidden second line of a review note: whose work it is and what it holds. */
export function reviewTag(author: string, work: BranchWork): string {
  return `<!-- claim-warden review author=${author} branch=${work.branch} ahead=${work.aheadBy} head=${work.head} pull=${work.pull ?? 'none'} -->`;
}

const REVIEW_TAG =
  /^<!-- claim-warden review author=(\S+) branch=(\S+) ahead=(\d+) head=([0-9a-f]{7,40}) pull=(\d+|none) -->$/;

/** A review the app noted on the thread: whose work, and the work. */
interface NotedReview {
  readonly author: string;
  readonly work: BranchWork;
}

/** The latest review the app's own notes record on the thread, or null. */
export function notedReview(facts: IssueFacts): NotedReview | null {
  let latest: { id: number; review: NotedReview } | null = null;
  for (const comment of facts.comments) {
    if (!sameName(comment.author, facts.appLogin)) continue;
    const review = reviewNoteOf(comment.body);
    if (!review || (latest && latest.id > comment.id)) continue;
    latest = { id: comment.id, review };
  }
  return latest?.review ?? null;
}

/** The review a note's hidden second line records (reviewTag), whoever wrote it; or null. */
export function reviewNoteOf(body: string): NotedReview | null {
  const match = REVIEW_TAG.exec(body.split('\n')[1]?.replace(/\r$/, '') ?? '');
  if (!match) return null;
  const [, author, branch, ahead, head, pull] = match as unknown as string[];
  return {
    author: author!,
    work: {
      branch: branch!,
      aheadBy: Number(ahead),
      head: head!,
      pull: pull === 'none' ? null : Number(pull),
    },
  };
}

/** The sentence naming a stale session's work, as the expiry note and refusals say it. */
export function workSentence(author: string, work: BranchWork): string {
  const commits = `${work.aheadBy} commit${work.aheadBy === 1 ? '' : 's'}`;
  const pull = work.pull === null ? '' : ` and pull request #${work.pull}`;
  return `@${author}'s session left ${commits} on ${work.branch} (${work.head.slice(0, 7)})${pull}; review them before this is taken over.`;
}

/**
 * docs/protocol.md §17 "never dragged back": the gate a needs-review issue puts on new claims,
 * or null when none is in force (no label, and no review starts in this decision).
 */
interface ReviewGate {
  /** The stale claim's author, whose own return is admitted; null for a label set by hand. */
  readonly owner: string | null;
  /** The work, as this decision found it or the app's note recorded it; null by hand. */
  readonly work: BranchWork | null;
  /** A review starts in this decision (the label is to be added). */
  readonly starts: boolean;
  /** The reason line of a refused claim. */
  readonly refusal: string;
}

/**
 * The gate of one decision. `started`: the stale claims this decision finalises into review,
 * with their work, oldest first (the latest is the one the gate names).
 */
export function reviewGate(
  facts: IssueFacts,
  config: DecideConfig,
  started: readonly { claim: ClaimComment; work: BranchWork }[],
): ReviewGate | null {
  const labelled = hasName(facts.labels, needsReviewLabel(config));
  const latest = started.at(-1);
  if (latest) {
    const owner = latest.claim.comment.author;
    return { owner, work: latest.work, starts: !labelled, refusal: refusalText(owner) };
  }
  if (!labelled) return null;
  const noted = notedReview(facts);
  return {
    owner: noted?.author ?? null,
    work: noted?.work ?? null,
    starts: false,
    refusal: refusalText(noted?.author ?? null),
  };
}

function refusalText(owner: string | null): string {
  const whose = owner ? `@${owner}'s stale session left work here` : 'a maintainer marked it';
  return `this issue needs review (${whose}); ask a maintainer to review it, or claim another issue`;
}

/**
 * The contenders a gate lets hold: the owner's own claims, and the holder that held when a
 * person added the label by hand (the in-progress label still shows it and no stale claim
 * ends now). The rest are refused.
 */
function admittedByGate(
  gate: ReviewGate,
  facts: IssueFacts,
  config: DecideConfig,
  contenders: readonly ClaimComment[],
  staleEndsNow: boolean,
): Set<ClaimComment> {
  const admitted = new Set<ClaimComment>();
  const holding = !gate.starts && !staleEndsNow && hasName(facts.labels, config.labels.inProgress);
  const oldest = contenders.reduce<ClaimComment | null>(
    (first, c) => (first === null || c.comment.id < first.comment.id ? c : first),
    null,
  );
  for (const claim of contenders) {
    if (gate.owner !== null && sameName(claim.comment.author, gate.owner)) admitted.add(claim);
    else if (holding && claim === oldest) admitted.add(claim);
  }
  return admitted;
}

/**
 * The needs-review label's writes: added when a review starts and the owner does not hold,
 * taken off when the owner holds (came back to finish the work), by any claim of theirs: an
 * agent's claim comment (the API's and MCP's too) or a person's claim (§16). `holder`: the
 * login holding the issue after this decision, or null.
 */
export function reviewLabelActions(
  facts: IssueFacts,
  config: DecideConfig,
  gate: ReviewGate | null,
  holder: string | null,
): Action[] {
  if (!gate) return [];
  const label = needsReviewLabel(config);
  const ownerHolds = holder !== null && gate.owner !== null && sameName(holder, gate.owner);
  const has = hasName(facts.labels, label);
  if (ownerHolds) return has ? [{ kind: 'remove-label', label }] : [];
  if (gate.starts && !has) return [{ kind: 'add-label', label, role: 'needsReview' }];
  return [];
}

/**
 * The contenders that may still hold under the gate, in their order; each refused one is
 * finalised as abandoned with the gate's reason (pushed onto `finalising`).
 */
export function gateContenders(
  gate: ReviewGate | null,
  facts: IssueFacts,
  config: DecideConfig,
  contenders: readonly ClaimComment[],
  finalising: Finalising[],
): ClaimComment[] {
  if (!gate) return [...contenders];
  const staleEndsNow = finalising.some((f) => f.reason === 'stale');
  const admitted = admittedByGate(gate, facts, config, contenders, staleEndsNow);
  for (const claim of contenders) {
    if (admitted.has(claim)) continue;
    finalising.push({ claim, outcome: 'abandoned', reason: 'needs-review', text: gate.refusal });
  }
  return contenders.filter((claim) => admitted.has(claim));
}

/**
 * docs/protocol.md §17 for a `/claim`: the review in force on an open issue before any command
 * runs, with whose return it admits (null: none, the label was added by hand), or null when
 * the issue is not in review: no label and no stale claim going to review now, or the owner's
 * own claim holds (the label goes).
 */
export function reviewInForce(
  facts: IssueFacts,
  config: DecideConfig,
  now: Date,
  agentHolder: string | null,
): { readonly owner: string | null } | null {
  if (!facts.open || facts.isPullRequest) return null;
  const started = trustedClaims(facts.comments, config.trustedBots)
    .filter((c) => c.marker.stage !== 'released' && isStale(c, config.staleAfterMs, now))
    .sort((a, b) => a.comment.id - b.comment.id)
    .flatMap((claim) => {
      const work = facts.review?.get(claim.comment.id);
      return work ? [{ claim, work }] : [];
    });
  const gate = reviewGate(facts, config, started);
  if (!gate) return null;
  if (gate.owner !== null && agentHolder !== null && sameName(agentHolder, gate.owner)) return null;
  return { owner: gate.owner };
}
