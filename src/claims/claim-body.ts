import {
  CLIENT_NAME,
  type ClaimCommentOptions,
  claimLine,
  foldText,
  MAX_NOTE_CHARS,
} from './comment.js';
import { isClaimIdentity, parseClaimMarker, renderClaimMarker } from './marker.js';
import { PATH_LINE_PREFIX, pathLineOf, renderPathLine } from './paths.js';
import type { ClaimMarker } from './types.js';

/**
 * Reading the parts back from an existing claim comment, and the one edit of an existing
 * comment's body. Pure: no I/O and no clock.
 */

/** A claim comment taken apart: what renderClaimComment(marker, options) renders. */
export interface ClaimBodyParts extends ClaimCommentOptions {
  readonly marker: ClaimMarker;
}

/** One edit of an existing claim comment; each part left out stays as the comment has it. */
export interface ClaimBodyEdit {
  /** The marker the comment gets: the first line, and the `- Stage:` line with it. */
  readonly marker: ClaimMarker;
  /** A new note, in place of the comment's `- Note:` line (or added where a new comment has it). */
  readonly note?: string | undefined;
  /** New canonical entries for the path line (docs/protocol.md §10), in place of the old one. */
  readonly paths?: readonly string[] | undefined;
  /**
   * A finalisation (docs/protocol.md §1, §4): `marker` is released with an outcome, and
   * `- Outcome:` and `- Reason:` lines close the body, replacing an earlier pair.
   */
  readonly reason?: string | undefined;
}

const STAGE_LINE = /^- Stage:/;
const UPDATED_LINE = /^- Updated:/;
const NOTE_LINE = /^- Note: (.*)$/s;
const TAKEOVER_LINE =
  /^- Takeover: replaces claim comment ([1-9][0-9]{0,15}) \(session ([^\s)]+)\)$/;
const CLIENT_LINE = /^- Via: (.*)$/s;
const FINAL_LINE = /^- (?:Outcome|Reason):/;
/** The lines a new comment writes after its note (renderClaimComment). */
const AFTER_NOTE = /^- (?:Takeover|Via|Outcome|Reason):/;

/**
 * The parts of a claim comment, or null when its first line is no claim marker: the marker,
 * the canonical entries of a valid path line, and the note, takeover and client lines as
 * renderClaimComment writes them (the first of each; one that breaks its rule is left out,
 * so rendering the parts again never throws). Other human text is not a part.
 */
export function parseClaimBody(body: string): ClaimBodyParts | null {
  const marker = parseClaimMarker(body);
  if (marker === null) return null;
  const lines = humanLines(body);
  const path = pathLineOf(body);
  const note = firstMatch(lines, NOTE_LINE)?.[1];
  const takeover = firstMatch(lines, TAKEOVER_LINE);
  const client = firstMatch(lines, CLIENT_LINE)?.[1];
  return {
    marker,
    ...(path.kind === 'valid' ? { paths: path.paths } : {}),
    ...(note !== undefined && foldText(note).length <= MAX_NOTE_CHARS
      ? { note: foldText(note) }
      : {}),
    ...(takeover && isClaimIdentity(takeover[2]!)
      ? { takeover: { commentId: Number(takeover[1]), session: takeover[2]! } }
      : {}),
    ...(client !== undefined && CLIENT_NAME.test(client) ? { client } : {}),
  };
}

/**
 * Edits an existing claim comment, whoever wrote it, keeping every line the edit does not
 * change: the marker line is rendered again; the first `- Stage:` line follows it, and so does
 * the first `- Updated:` line except in a finalisation (docs/protocol.md §1 names the
 * finalisation's edit: Stage, Outcome, Reason); the path line is kept byte for byte unless
 * `paths` replace it; the note is replaced only when given. A body renderClaimComment wrote
 * comes out as renderClaimComment would write the edited parts. `\r\n` endings are kept
 * (GitHub keeps them from clients that send them). Retrying an edit gives the same body
 * (docs/protocol.md §6). Throws when a part cannot be written, or `reason` comes without a
 * released marker carrying an outcome.
 */
export function editClaimBody(body: string, edit: ClaimBodyEdit): string {
  const { marker } = edit;
  const newline = body.indexOf('\n');
  const eol = newline > 0 && body[newline - 1] === '\r' ? '\r\n' : '\n';
  let lines = humanLines(body);
  if (edit.paths !== undefined) lines = withPathLine(lines, renderPathLine(edit.paths));
  lines = replaceFirst(lines, STAGE_LINE, claimLine.stage(marker.stage));
  if (edit.reason === undefined) {
    lines = replaceFirst(lines, UPDATED_LINE, claimLine.updated(marker.updated));
  }
  if (edit.note !== undefined) lines = withNote(lines, claimLine.note(edit.note));
  if (edit.reason !== undefined) {
    if (marker.stage !== 'released' || marker.outcome === undefined) {
      throw new Error('a finalisation needs a released claim with an outcome (see releasedClaim)');
    }
    const kept = trimTrailingBlankLines(lines.filter((line) => !FINAL_LINE.test(line)));
    lines = [...kept, claimLine.outcome(marker.outcome), claimLine.reason(edit.reason)];
  }
  return [renderClaimMarker(marker), ...lines].join(eol);
}

/** Every line after the first (the path line first, when there is one), without `\r`. */
function humanLines(body: string): string[] {
  const newline = body.indexOf('\n');
  if (newline === -1) return [];
  return body
    .slice(newline + 1)
    .split('\n')
    .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function firstMatch(lines: readonly string[], pattern: RegExp): RegExpExecArray | null {
  for (const line of lines) {
    const match = pattern.exec(line);
    if (match) return match;
  }
  return null;
}

/** Replaces the first line matching `pattern` only; later ones are the people's text. */
function replaceFirst(lines: readonly string[], pattern: RegExp, line: string): string[] {
  const index = lines.findIndex((l) => pattern.test(l));
  const out = [...lines];
  if (index !== -1) out[index] = line;
  return out;
}

/** `line` as the path line: the second line of the comment, replacing one there (§10). */
function withPathLine(lines: readonly string[], line: string): string[] {
  const rest = lines[0]?.startsWith(PATH_LINE_PREFIX) ? lines.slice(1) : lines;
  return [line, ...rest];
}

/** The note line in place of the first one, or where renderClaimComment puts it. */
function withNote(lines: readonly string[], line: string): string[] {
  if (lines.some((l) => NOTE_LINE.test(l))) return replaceFirst(lines, NOTE_LINE, line);
  const at = lines.findIndex((l) => AFTER_NOTE.test(l));
  const index = at === -1 ? lines.length : at;
  return [...lines.slice(0, index), line, ...lines.slice(index)];
}

function trimTrailingBlankLines(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end -= 1;
  return lines.slice(0, end);
}
