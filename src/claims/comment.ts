import { formatClaimTime, isClaimIdentity, renderClaimMarker } from './marker.js';
import { renderPathLine } from './paths.js';
import type { AssigneeMode, ClaimMarker, Outcome, Stage } from './types.js';

/**
 * The whole claim comment: the marker line plus the human text below it, in the shape of the
 * Praetor claim protocol. The human text is for people; nothing here ever reads state from it
 * (docs/protocol.md §1). Each line of it is written here and nowhere else (claimLine), so a
 * fresh comment and an edited one (claim-body.ts) say the same thing the same way.
 */

/** The longest note, in characters after folding whitespace (docs/protocol.md §8: refused, not cut). */
export const MAX_NOTE_CHARS = 280;

/** A claim comment's `client` (docs/protocol.md §8): display metadata, "via <client>". */
export const CLIENT_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** The parts of a claim comment besides its marker. */
export interface ClaimCommentOptions {
  /** Free text for people; whitespace runs fold to one space, at most 280 characters. */
  readonly note?: string | undefined;
  /** The stale claim this comment takes over. */
  readonly takeover?: { readonly commentId: number; readonly session: string } | undefined;
  /** The paths the claim will change: the path line, second line of the comment (docs/protocol.md §10). */
  readonly paths?: readonly string[] | undefined;
  /** The client that wrote the claim, shown as "via <client>" (docs/protocol.md §8). */
  readonly client?: string | undefined;
}

/** The human wording of each assignee mode, as every client writes it (docs/protocol.md §1). */
const ASSIGNEE_TEXT: Readonly<Record<AssigneeMode, string>> = {
  claim: 'added by this claim; release removes it',
  before: 'already assigned before this claim; release leaves it',
};

/** The lines an edit rewrites (claim-body.ts); each throws when its part is malformed. */
export const claimLine = {
  stage: (stage: Stage) => `- Stage: ${stage}`,
  updated: (at: Date) => `- Updated: ${formatClaimTime(at)}`,
  note: (note: string) => `- Note: ${checkedNote(note)}`,
  outcome: (outcome: Outcome) => `- Outcome: ${outcome}`,
  reason: (reason: string) => `- Reason: ${foldText(reason)}`,
} as const;

/**
 * Renders a whole claim comment from its parts: the marker line (docs/protocol.md §1), the
 * path line (§10) and the human text below them. Every claim comment a writer creates, and
 * every session's rewrite of its own (ownClaimBody), is this function's output. Throws when
 * the claim cannot be written (see renderClaimMarker) or a part is malformed.
 */
export function renderClaimComment(claim: ClaimMarker, options: ClaimCommentOptions = {}): string {
  const lines = [
    renderClaimMarker(claim),
    ...(options.paths === undefined ? [] : [renderPathLine(options.paths)]),
    `**Praetor claim** - session \`${claim.session}\`, lane \`${claim.lane}\`, branch \`${claim.branch}\``,
    '',
    claimLine.stage(claim.stage),
    `- Started: ${formatClaimTime(claim.started)}`,
    claimLine.updated(claim.updated),
  ];
  if (claim.assignee !== undefined) lines.push(`- Assignee: ${ASSIGNEE_TEXT[claim.assignee]}`);
  if (options.note !== undefined) lines.push(claimLine.note(options.note));
  if (options.takeover !== undefined) lines.push(takeoverLine(options.takeover));
  // Via before Outcome: a finalisation appends Outcome and Reason at the end (claim-body.ts).
  if (options.client !== undefined) lines.push(`- Via: ${checkedClient(options.client)}`);
  if (claim.outcome !== undefined) lines.push(claimLine.outcome(claim.outcome));
  return lines.join('\n');
}

/**
 * Folds newlines and whitespace runs into single spaces, so free text stays on its one line
 * of the human text and cannot forge a `- Stage:` or `- Outcome:` line of its own.
 */
export function foldText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The folded note; a note longer than MAX_NOTE_CHARS is refused, not cut (docs/agents.md, "Commands": `status`). */
function checkedNote(note: string): string {
  const folded = foldText(note);
  if (folded.length > MAX_NOTE_CHARS) {
    throw new Error(`claim note is ${folded.length} characters; at most ${MAX_NOTE_CHARS}`);
  }
  return folded;
}

function checkedClient(client: string): string {
  if (!CLIENT_NAME.test(client)) throw new Error('claim client must be 1..64 of A-Za-z0-9._-');
  return client;
}

function takeoverLine(takeover: NonNullable<ClaimCommentOptions['takeover']>): string {
  if (!Number.isSafeInteger(takeover.commentId) || takeover.commentId <= 0) {
    throw new Error(`takeover commentId must be a positive integer, got ${takeover.commentId}`);
  }
  // Same shape as a marker's session, so the line cannot carry markup or a newline.
  if (!isClaimIdentity(takeover.session)) {
    throw new Error(
      'takeover session must be a claim identity (docs/protocol.md §1 session shape)',
    );
  }
  return `- Takeover: replaces claim comment ${takeover.commentId} (session ${takeover.session})`;
}

/**
 * The claim as a finalisation writes it (docs/protocol.md §4): stage `released`, the given outcome,
 * `updated` = now, every other key kept (session, lane, branch, started, assignee).
 */
export function releasedClaim(claim: ClaimMarker, outcome: Outcome, now: Date): ClaimMarker {
  return { ...claim, stage: 'released', outcome, updated: now };
}
