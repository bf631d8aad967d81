import { formatClaimTime, isClaimIdentity, renderClaimMarker } from './marker.js';
import { renderPathLine } from './paths.js';
import type { AssigneeMode, ClaimMarker, Outcome } from './types.js';

/**
 * The whole claim comment: the marker line plus the human text below it, in the shape of the
 * Praetor claim protocol. The human text is for people; nothing here ever reads state from it
 * (docs/protocol.md §1). The only edit to existing human text is a finalisation's (docs/protocol.md §1, §4).
 */

/** The longest note, in characters after folding whitespace (Praetor: refused, not cut). */
export const MAX_NOTE_CHARS = 280;

/** Optional lines of a claim comment. */
export interface ClaimCommentOptions {
  /** Free text for people; whitespace runs fold to one space, at most 280 characters. */
  readonly note?: string;
  /** The stale claim this comment takes over. */
  readonly takeover?: { readonly commentId: number; readonly session: string };
  /** The paths the claim will change: the path line, second line of the comment (docs/protocol.md §10). */
  readonly paths?: readonly string[];
}

/** The human wording of each assignee mode, as Praetor writes it. */
const ASSIGNEE_TEXT: Readonly<Record<AssigneeMode, string>> = {
  claim: 'added by this claim; release removes it',
  before: 'already assigned before this claim; release leaves it',
};

const STAGE_LINE = /^- Stage:/;
const FINAL_LINE = /^- (?:Outcome|Reason):/;

/**
 * Renders a whole claim comment: the marker line (docs/protocol.md §1) and the human text below it.
 * Throws when the claim cannot be written (see renderClaimMarker) or an option is malformed.
 */
export function renderClaimComment(claim: ClaimMarker, options: ClaimCommentOptions = {}): string {
  const lines = [
    renderClaimMarker(claim),
    ...(options.paths === undefined ? [] : [renderPathLine(options.paths)]),
    `**Praetor claim** - session \`${claim.session}\`, lane \`${claim.lane}\`, branch \`${claim.branch}\``,
    '',
    `- Stage: ${claim.stage}`,
    `- Started: ${formatClaimTime(claim.started)}`,
    `- Updated: ${formatClaimTime(claim.updated)}`,
  ];
  if (claim.assignee !== undefined) lines.push(`- Assignee: ${ASSIGNEE_TEXT[claim.assignee]}`);
  if (options.note !== undefined) lines.push(`- Note: ${checkedNote(options.note)}`);
  if (options.takeover !== undefined) lines.push(takeoverLine(options.takeover));
  if (claim.outcome !== undefined) lines.push(`- Outcome: ${claim.outcome}`);
  return lines.join('\n');
}

/**
 * Folds newlines and whitespace runs into single spaces, so free text stays on its one line
 * of the human text and cannot forge a `- Stage:` or `- Outcome:` line of its own.
 */
export function foldText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The folded note; a note longer than MAX_NOTE_CHARS is refused, not cut (Praetor rule). */
function checkedNote(note: string): string {
  const folded = foldText(note);
  if (folded.length > MAX_NOTE_CHARS) {
    throw new Error(`claim note is ${folded.length} characters; at most ${MAX_NOTE_CHARS}`);
  }
  return folded;
}

function takeoverLine(takeover: { readonly commentId: number; readonly session: string }): string {
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

/**
 * Rewrites a claim comment body for a finalisation (docs/protocol.md §1 last paragraph, §4): the first
 * line becomes the marker of `finalised`, the first `- Stage:` line of the human text reads
 * `- Stage: released`, and `- Outcome:` and `- Reason:` lines end the body. Finalising a
 * finalised body again replaces those two lines instead of adding more, so retries converge
 * (docs/protocol.md §6). Throws when `finalised` is not a released claim with an outcome.
 */
export function finaliseClaimBody(body: string, finalised: ClaimMarker, reason: string): string {
  if (finalised.stage !== 'released' || finalised.outcome === undefined) {
    throw new Error('finaliseClaimBody needs a released claim with an outcome (see releasedClaim)');
  }
  const marker = renderClaimMarker(finalised);
  const newline = body.indexOf('\n');
  const firstLine = newline === -1 ? body : body.slice(0, newline);
  // Keep the body's line ending: GitHub keeps `\r\n` from clients that send it.
  const eol = firstLine.endsWith('\r') ? '\r\n' : '\n';
  const rest = newline === -1 ? [] : body.slice(newline + 1).split('\n');
  const kept = trimTrailingBlankLines(rewriteStageLine(rest.filter((l) => !FINAL_LINE.test(l))));
  const closing = [`- Outcome: ${finalised.outcome}`, `- Reason: ${foldText(reason)}`];
  return [marker, ...kept.map(withoutCr), ...closing].join(eol);
}

/** Replaces the first `- Stage:` line only; later ones are the people's text, left alone. */
function rewriteStageLine(lines: readonly string[]): string[] {
  const index = lines.findIndex((l) => STAGE_LINE.test(l));
  if (index === -1) return [...lines];
  const out = [...lines];
  out[index] = '- Stage: released';
  return out;
}

function trimTrailingBlankLines(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end -= 1;
  return lines.slice(0, end);
}

/** Lines are joined with the body's own line ending, so a `\r` kept on a line would double. */
function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
