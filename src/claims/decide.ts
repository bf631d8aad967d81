import { editClaimBody } from './claim-body.js';
import { releasedClaim } from './comment.js';
import {
  type ClaimComment,
  findHolder,
  heartbeat,
  isStale,
  staleAt,
  staleSince,
} from './liveness.js';
import { markdownCode } from './markdown-code.js';
import { formatClaimTime, parseClaimMarker } from './marker.js';
import { hasName, sameName } from './names.js';
import { overlaps, pathLineOf } from './paths.js';
import type { AssigneeMode, Hint, Outcome, ThreadComment } from './types.js';

/** What decide() needs of the repository config (docs/protocol.md §7), already resolved. */
export interface DecideConfig {
  readonly staleAfterMs: number;
  readonly labels: { readonly inProgress: string; readonly blocked: string };
  readonly assign: boolean;
  readonly notifyOnExpiry: boolean;
  readonly enforceLabels: boolean;
  readonly trustedBots: readonly string[];
  /** Logins and `org/team`s an expiry note mentions besides the author (docs/protocol.md §13). */
  readonly notify?: readonly string[];
}

/** Everything decide() knows about one issue: GitHub's state plus what events told. */
export interface IssueFacts {
  readonly open: boolean;
  /** GitHub's `state_reason`: `completed`, `not_planned`, `reopened` or null. */
  readonly stateReason: string | null;
  readonly isPullRequest: boolean;
  readonly labels: readonly string[];
  readonly assignees: readonly string[];
  /** The whole thread, in any order. */
  readonly comments: readonly ThreadComment[];
  /** The app's own bot login (`slug[bot]`): its notes are recognised by it. */
  readonly appLogin: string;
  readonly hints: readonly Hint[];
  /**
   * The logins the app itself assigned for claims, as it remembers them (absent: it remembers
   * none). Each is unassigned once no claim of its author holds, whoever that author has
   * become: a claimant who stopped being a collaborator has no trusted marker left to say so.
   */
  readonly appAssignees?: readonly string[];
  /**
   * Verified holders of other issues of the repository whose paths may overlap this issue's
   * claims (docs/protocol.md §10): a claim overlapping one with a lower comment id loses.
   */
  readonly pathHolders?: readonly PathHolderFact[];
}

/** A holder of another issue of the repository and its paths, verified from its thread. */
export interface PathHolderFact {
  /** The other issue as people write it: `acme/widgets#5`. */
  readonly issue: string;
  readonly commentId: number;
  readonly session: string;
  /** Canonical entries (src/claims/paths.ts). */
  readonly paths: readonly string[];
}

/** Why a claim comment is finalised; also the label of the finalisations metric. */
export type FinaliseReason =
  | 'lost'
  | 'stale'
  | 'closed'
  | 'administrative'
  | 'release-final'
  | 'paths';

/** One change to GitHub; a Plan is a list of them, applied in order by one executor. */
export type Action =
  | { readonly kind: 'post-note'; readonly body: string; readonly forCommentId: number }
  | {
      readonly kind: 'finalise';
      readonly commentId: number;
      readonly body: string;
      readonly reason: FinaliseReason;
      readonly outcome: Outcome;
    }
  | { readonly kind: 'remove-label'; readonly label: string }
  | {
      readonly kind: 'add-label';
      readonly label: string;
      /** Which status label it is: the colour and description it is created with. */
      readonly role: LabelRole;
    }
  | { readonly kind: 'unassign'; readonly login: string }
  | { readonly kind: 'assign'; readonly login: string }
  // A session's own comment writes, which executePlan may send with the session's own token:
  | {
      /** A new claim comment; the executor reports the comment GitHub made of it. */
      readonly kind: 'post-claim';
      readonly body: string;
    }
  | {
      /** The session's own claim comment rewritten: a stage recorded, or its release. */
      readonly kind: 'edit-claim';
      readonly commentId: number;
      readonly body: string;
    }
  | {
      /** The session's own legacy claim comment, once its replacement is posted (migrate). */
      readonly kind: 'delete-comment';
      readonly commentId: number;
    };

/** The kinds of action that write a session's own comments, not the issue's shared state. */
export const OWN_COMMENT_KINDS = ['post-claim', 'edit-claim', 'delete-comment'] as const;

/** The two status labels of docs/protocol.md §4. */
export type LabelRole = 'inProgress' | 'blocked';

/** The holder decide() settled on, for logs and the client. */
export interface HolderSummary {
  readonly commentId: number;
  readonly author: string;
  readonly session: string;
  readonly stage: string;
  /** The rest of the holder's marker and comment, for the work queue's index (§9). */
  readonly lane: string;
  readonly branch: string;
  readonly started: Date;
  readonly updated: Date;
  /** The holder's heartbeat (docs/protocol.md §3). */
  readonly heartbeat: Date;
  readonly assignee?: AssigneeMode;
  readonly url?: string;
  /** The paths it holds (docs/protocol.md §10), canonical; empty without a valid path line. */
  readonly paths: readonly string[];
  /** Why its path line was refused, when it has one that breaks the grammar: log it. */
  readonly pathProblem?: string;
}

/** The result of decide(): what to write, and when to look at the issue again. */
export interface Plan {
  readonly actions: readonly Action[];
  readonly holder: HolderSummary | null;
  /** When the holder turns stale; the sweep reconciles the issue then. Null: nothing due. */
  readonly deadline: Date | null;
}

const TRUSTED_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/** The first line of the note the app posts when a claim expires; makes the note idempotent. */
export function expiryNoteTag(commentId: number): string {
  return `<!-- claim-warden note=expired comment=${commentId} -->`;
}

/** The first line of the note telling an author their claim lost its paths (§10). */
export function pathsNoteTag(commentId: number): string {
  return `<!-- claim-warden note=paths comment=${commentId} -->`;
}

/**
 * The reason line of a claim finalised because `holder` holds the issue (docs/protocol.md §3),
 * worded the same whether the app or a session writes it.
 */
export function lostTo(holder: ClaimComment): string {
  return `lost to the older claim in comment ${holder.comment.id} (session ${holder.marker.session})`;
}

/** docs/protocol.md §2: a marker counts only when its author is a collaborator or a trusted bot. */
export function isTrustedAuthor(
  login: string,
  association: string,
  trustedBots: readonly string[],
): boolean {
  if (TRUSTED_ASSOCIATIONS.has(association)) return true;
  // GitHub logins are case-insensitive.
  return hasName(trustedBots, login);
}

/** The trusted claim comments of a thread, oldest first. Untrusted markers are not claims. */
export function trustedClaims(
  comments: readonly ThreadComment[],
  trustedBots: readonly string[],
): ClaimComment[] {
  const claims: ClaimComment[] = [];
  for (const comment of comments) {
    if (!isTrustedAuthor(comment.author, comment.authorAssociation, trustedBots)) continue;
    const marker = parseClaimMarker(comment.body);
    if (marker) claims.push({ comment, marker });
  }
  return claims.sort((a, b) => a.comment.id - b.comment.id);
}

/**
 * Decides what makes docs/protocol.md §4 true for one issue. Pure: the thread, the config and the clock
 * in; a Plan out. Emits no action that the current state already satisfies.
 */
export function decide(facts: IssueFacts, config: DecideConfig, now: Date): Plan {
  // docs/protocol.md §2: claims live on issues only.
  if (facts.isPullRequest) return { actions: [], holder: null, deadline: null };

  const claims = trustedClaims(facts.comments, config.trustedBots);
  const reverted = new Map<number, Outcome | undefined>();
  for (const hint of facts.hints) {
    if (hint.kind === 'release-reverted') reverted.set(hint.commentId, hint.outcome);
  }

  const finalising: Array<{
    claim: ClaimComment;
    outcome: Outcome;
    reason: FinaliseReason;
    text: string;
  }> = [];
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

  // Stale claims first: they can never hold (docs/protocol.md §3 and §4).
  const fresh: ClaimComment[] = [];
  for (const claim of candidates) {
    if (!isStale(claim, config.staleAfterMs, now)) {
      fresh.push(claim);
      continue;
    }
    const since = formatClaimTime(staleSince(claim, config.staleAfterMs, now));
    finalising.push({ claim, outcome: 'abandoned', reason: 'stale', text: `stale since ${since}` });
    if (config.notifyOnExpiry && facts.open && !hasExpiryNote(facts, claim.comment.id)) {
      notes.push({
        kind: 'post-note',
        forCommentId: claim.comment.id,
        body: expiryNote(claim, since, config.notify ?? []),
      });
    }
  }

  // docs/protocol.md §10: on an open issue, a claim whose paths overlap a holder of another
  // issue with a lower comment id loses; the next live claim is then the candidate.
  const contenders = facts.open
    ? withoutPathLosers(fresh, facts, config, finalising, notes)
    : fresh;
  // The holder as if the issue were open: on a closed issue it is the claim that lands.
  let holder = findHolder(contenders, true, config.staleAfterMs, now);
  if (holder && !facts.open) {
    const landed = facts.stateReason === 'completed';
    finalising.push({
      claim: holder,
      outcome: landed ? 'landed' : 'abandoned',
      reason: 'closed',
      text: landed ? 'the issue was closed as completed' : 'the issue was closed',
    });
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
    finalising.push({
      claim,
      outcome: 'abandoned',
      reason: 'lost',
      text: holder ? lostTo(holder) : 'lost to an older claim',
    });
  }
  if (finalising.some((f) => f.claim === holder)) holder = null;

  const actions: Action[] = [...notes];
  for (const { claim, outcome, reason, text } of finalising.sort(
    (a, b) => a.claim.comment.id - b.claim.comment.id,
  )) {
    const finalised = releasedClaim(claim.marker, outcome, now);
    actions.push({
      kind: 'finalise',
      commentId: claim.comment.id,
      body: editClaimBody(claim.comment.body, { marker: finalised, reason: text }),
      reason,
      outcome,
    });
  }
  actions.push(...labelActions(facts, config, holder, finalising.length > 0));
  actions.push(...assigneeActions(facts, config, claims, holder));

  return {
    actions,
    holder: holder && holderSummary(holder),
    deadline: holder ? staleAt(holder, config.staleAfterMs) : null,
  };
}

function holderSummary(holder: ClaimComment): HolderSummary {
  const line = pathLineOf(holder.comment.body);
  return {
    commentId: holder.comment.id,
    author: holder.comment.author,
    session: holder.marker.session,
    stage: holder.marker.stage,
    lane: holder.marker.lane,
    branch: holder.marker.branch,
    started: holder.marker.started,
    updated: holder.marker.updated,
    heartbeat: heartbeat(holder),
    ...(holder.marker.assignee ? { assignee: holder.marker.assignee } : {}),
    ...(holder.comment.url ? { url: holder.comment.url } : {}),
    paths: line.kind === 'valid' ? line.paths : [],
    ...(line.kind === 'invalid' ? { pathProblem: line.problem } : {}),
  };
}

/**
 * The fresh claims that may still hold, oldest first: walking up from the oldest, each claim
 * whose paths overlap a lower-id holder elsewhere is finalised (reason `paths`) until one
 * keeps; every claim after that one is left to lose to it as usual (docs/protocol.md §10).
 */
function withoutPathLosers(
  fresh: readonly ClaimComment[],
  facts: IssueFacts,
  config: DecideConfig,
  finalising: Array<{
    claim: ClaimComment;
    outcome: Outcome;
    reason: FinaliseReason;
    text: string;
  }>,
  notes: Action[],
): ClaimComment[] {
  const others = facts.pathHolders ?? [];
  if (others.length === 0) return [...fresh];
  const ordered = [...fresh].sort((a, b) => a.comment.id - b.comment.id);
  for (let i = 0; i < ordered.length; i++) {
    const claim = ordered[i]!;
    const conflict = pathConflict(claim, others);
    if (conflict === null) return ordered.slice(i);
    const { other, held } = conflict;
    const text = `paths held by ${other.issue} (comment ${other.commentId}, session ${other.session}): ${held.join(', ')}`;
    finalising.push({ claim, outcome: 'abandoned', reason: 'paths', text });
    if (config.notifyOnExpiry && !hasNote(facts, pathsNoteTag(claim.comment.id))) {
      notes.push({
        kind: 'post-note',
        forCommentId: claim.comment.id,
        body: pathsNote(claim, conflict),
      });
    }
  }
  return [];
}

/** The oldest holder elsewhere a claim's paths overlap, and its entries they meet; or null. */
function pathConflict(
  claim: ClaimComment,
  others: readonly PathHolderFact[],
): { other: PathHolderFact; held: string[] } | null {
  const line = pathLineOf(claim.comment.body);
  if (line.kind !== 'valid') return null;
  let winner: { other: PathHolderFact; held: string[] } | null = null;
  for (const other of others) {
    if (other.commentId >= claim.comment.id) continue;
    if (winner !== null && other.commentId > winner.other.commentId) continue;
    const pairs = overlaps(other.paths, line.paths);
    if (pairs.length === 0) continue;
    winner = { other, held: [...new Set(pairs.map(([held]) => held))] };
  }
  return winner;
}

/**
 * Entries and sessions go in code spans through markdownCode, the one renderer of untrusted
 * text: a segment may begin with `@`, which must not mention anyone.
 */
function pathsNote(
  claim: ClaimComment,
  { other, held }: { other: PathHolderFact; held: readonly string[] },
): string {
  const paths = held.map((entry) => markdownCode(entry)).join(', ');
  return [
    pathsNoteTag(claim.comment.id),
    `@${claim.comment.author} the claim in comment ${claim.comment.id} (session ${markdownCode(claim.marker.session)}) names paths already held by ${other.issue} (comment ${other.commentId}, session ${markdownCode(other.session)}): ${paths}. It has been released as abandoned; claim again without those paths, or wait until that claim ends.`,
  ].join('\n');
}

function hasExpiryNote(facts: IssueFacts, commentId: number): boolean {
  return hasNote(facts, expiryNoteTag(commentId));
}

function hasNote(facts: IssueFacts, tag: string): boolean {
  return facts.comments.some((c) => sameName(c.author, facts.appLogin) && c.body.startsWith(tag));
}

function expiryNote(claim: ClaimComment, since: string, notify: readonly string[]): string {
  const others = notify.filter((target) => !sameName(target, claim.comment.author));
  return [
    expiryNoteTag(claim.comment.id),
    `@${claim.comment.author} the claim in comment ${claim.comment.id} (session ${markdownCode(claim.marker.session)}) went stale: no update since ${formatClaimTime(heartbeat(claim))}, stale since ${since}. It has been released as abandoned; claim the issue again to go on.`,
    ...(others.length > 0 ? [`cc ${others.map((target) => `@${target}`).join(' ')}`] : []),
  ].join('\n');
}

/**
 * docs/protocol.md §4: a person removing the in-progress label while a claim is live releases it. Only a
 * removal after the holder's comment was posted counts (a late delivery of an older removal
 * must not release a newer claim), and only while the label is still absent.
 */
function administrativeRemoval(
  facts: IssueFacts,
  config: DecideConfig,
  holder: ClaimComment,
): { by: string; label: string } | null {
  const label = config.labels.inProgress;
  if (hasName(facts.labels, label)) return null;
  const posted = holder.comment.createdAt.getTime();
  const removal = facts.hints.find(
    (hint) =>
      hint.kind === 'label-removed' && sameName(hint.label, label) && Date.parse(hint.at) >= posted,
  );
  return removal?.kind === 'label-removed' ? { by: removal.by, label } : null;
}

function labelActions(
  facts: IssueFacts,
  config: DecideConfig,
  holder: ClaimComment | null,
  claimsChanged: boolean,
): Action[] {
  const wanted: Array<[LabelRole, boolean]> = [
    ['inProgress', holder !== null],
    ['blocked', holder?.marker.stage === 'blocked'],
  ];
  const actions: Action[] = [];
  for (const [role, want] of wanted) {
    const label = config.labels[role];
    const has = hasName(facts.labels, label);
    if (want && !has) actions.push({ kind: 'add-label', label, role });
    if (!want && has && (config.enforceLabels || claimsChanged || !addedByPerson(facts, label))) {
      actions.push({ kind: 'remove-label', label });
    }
  }
  // Removals first: a reader never sees both the old and the new state labelled at once.
  return actions.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'remove-label' ? -1 : 1));
}

/**
 * With `enforceLabels: false` a status label a person just added is left alone, unless the
 * claims themselves changed in this reconcile.
 */
function addedByPerson(facts: IssueFacts, label: string): boolean {
  return facts.hints.some((hint) => hint.kind === 'label-added' && sameName(hint.label, label));
}

/**
 * docs/protocol.md §4: the holder's author is assigned; with no holder, an author whose latest claim
 * recorded `assignee=claim` is unassigned, and every other assignee is kept. Only each
 * author's latest claim counts, so an old released claim does not undo a newer one. Besides,
 * every login the app remembers assigning is unassigned unless its author holds the issue.
 */
function assigneeActions(
  facts: IssueFacts,
  config: DecideConfig,
  claims: readonly ClaimComment[],
  holder: ClaimComment | null,
): Action[] {
  const latest = new Map<string, { id: number; assignee: string | undefined }>();
  const note = (author: string, id: number, assignee: string | undefined) => {
    const key = author.toLowerCase();
    const seen = latest.get(key);
    if (!seen || id > seen.id) latest.set(key, { id, assignee });
  };
  for (const claim of claims) note(claim.comment.author, claim.comment.id, claim.marker.assignee);
  for (const hint of facts.hints) {
    if (hint.kind !== 'comment-deleted') continue;
    if (!isTrustedAuthor(hint.author, hint.authorAssociation, config.trustedBots)) continue;
    if (claims.some((c) => c.comment.id === hint.commentId)) continue;
    const marker = parseClaimMarker(hint.body);
    if (marker) note(hint.author, hint.commentId, marker.assignee);
  }

  const actions: Action[] = [];
  const holderAuthor = holder?.comment.author.toLowerCase();
  const unassigning = new Set<string>();
  const unassign = (author: string) => {
    if (author === holderAuthor || unassigning.has(author)) return;
    const assigned = facts.assignees.find((login) => login.toLowerCase() === author);
    if (!assigned) return;
    unassigning.add(author);
    actions.push({ kind: 'unassign', login: assigned });
  };
  for (const [author, claim] of latest) {
    if (claim.assignee === 'claim') unassign(author);
  }
  // What the app assigned itself it takes back, trusted marker or not. Only the app's own
  // memory is read here, never a marker, so a forged marker still makes no write.
  for (const login of facts.appAssignees ?? []) unassign(login.toLowerCase());
  // GitHub silently refuses to assign bot accounts: asking would cost a call on every reconcile.
  const author = holder?.comment.author;
  if (author && config.assign && !author.endsWith('[bot]') && !hasName(facts.assignees, author)) {
    actions.push({ kind: 'assign', login: author });
  }
  return actions;
}
