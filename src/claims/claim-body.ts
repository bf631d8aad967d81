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

/** A claim comment taken apart: what renderClaimComment(marker, options) renders. */
type ClaimBodyParts = ClaimCommentOptions & { readonly marker: ClaimMarker };

/** One edit of an existing claim comment; each part left out stays as the comment has it. */
interface ClaimBodyEdit {
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
  /^- Takeover: replaces claim comment ([1-9][0-9]{0,15}) \(session ([^\s)]+)\)\r?$/;
const CLIENT_LINE = /^- Via: (.*?)\r?$/s;
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
  const lines = body.split('\n').slice(1);
  const first = (pattern: RegExp) => pattern.exec(lines.find((l) => pattern.test(l)) ?? '');
  const path = pathLineOf(body);
  const note = foldText(first(NOTE_LINE)?.[1] ?? '');
  const [, commentId, session = ''] = first(TAKEOVER_LINE) ?? [];
  const client = first(CLIENT_LINE)?.[1] ?? '';
  return {
    marker,
    paths: path.kind === 'valid' ? path.paths : undefined,
    note: first(NOTE_LINE) && note.length <= MAX_NOTE_CHARS ? note : undefined,
    takeover:
      isClaimIdentity(session) && Number.isSafeInteger(Number(commentId))
        ? { commentId: Number(commentId), session }
        : undefined,
    client: CLIENT_NAME.test(client) ? client : undefined,
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
  const { marker, reason } = edit;
  const eol = /^[^\n]*\r\n/.test(body) ? '\r\n' : '\n';
  const lines = body
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/\r$/, ''));
  // The first line matching `pattern` only: later ones are the people's text.
  const set = (pattern: RegExp, line: string) => {
    const index = lines.findIndex((l) => pattern.test(l));
    if (index !== -1) lines[index] = line;
    return index !== -1;
  };
  if (edit.paths !== undefined) {
    // docs/protocol.md §10: the path line is the second line; one there is replaced.
    if (lines[0]?.startsWith(PATH_LINE_PREFIX)) lines.shift();
    lines.unshift(renderPathLine(edit.paths));
  }
  set(STAGE_LINE, claimLine.stage(marker.stage));
  if (reason === undefined) set(UPDATED_LINE, claimLine.updated(marker.updated));
  if (edit.note !== undefined && !set(NOTE_LINE, claimLine.note(edit.note))) {
    // Where renderClaimComment puts it: before the lines it writes after the note.
    const at = lines.findIndex((l) => AFTER_NOTE.test(l));
    lines.splice(at === -1 ? lines.length : at, 0, claimLine.note(edit.note));
  }
  if (reason === undefined) return [renderClaimMarker(marker), ...lines].join(eol);
  if (marker.stage !== 'released' || marker.outcome === undefined) {
    throw new Error('a finalisation needs a released claim with an outcome (see releasedClaim)');
  }
  const kept = lines.filter((line) => !FINAL_LINE.test(line));
  while (kept.length > 0 && kept.at(-1)!.trim() === '') kept.pop();
  const closing = [claimLine.outcome(marker.outcome), claimLine.reason(reason)];
  return [renderClaimMarker(marker), ...kept, ...closing].join(eol);
}
