import { renderClaimComment } from '../claims/comment.js';
import { formatClaimTime, renderClaimMarker } from '../claims/marker.js';
import { PATH_LINE_PREFIX, renderPathLine } from '../claims/paths.js';
import type { ClaimMarker } from '../claims/types.js';

/** Renders the comment a new API claim posts; `client` becomes "via <client>" (docs/protocol.md §8). */
export function newClaimBody(
  marker: ClaimMarker,
  options: {
    note?: string | undefined;
    client?: string | undefined;
    takeover?: { commentId: number; session: string } | undefined;
    /** Canonical entries: the path line, second line of the comment (docs/protocol.md §10). */
    paths?: readonly string[] | undefined;
  },
): string {
  const body = renderClaimComment(marker, {
    ...(options.note === undefined ? {} : { note: options.note }),
    ...(options.paths === undefined ? {} : { paths: options.paths }),
    ...(options.takeover ? { takeover: options.takeover } : {}),
  });
  return options.client ? `${body}\n- Via: ${options.client}` : body;
}

const UPDATED_LINE = /^- Updated: .*$/m;
const STAGE_LINE = /^- Stage: .*$/m;
const NOTE_LINE = /^- Note: .*$/m;

/**
 * A claim comment's body with its marker replaced by `marker` (a renewal or a heartbeat):
 * the first line re-rendered, the `- Updated:` and `- Stage:` lines of the human text moved
 * along, the note replaced when one is given, the path line (second line) replaced or added
 * when `paths` are given; the rest, the people's text, kept.
 */
export function renewedBody(
  body: string,
  marker: ClaimMarker,
  note?: string,
  paths?: readonly string[],
): string {
  const newline = body.indexOf('\n');
  const after = newline === -1 ? '' : body.slice(newline);
  const rest = paths === undefined ? after : withPathLine(after, renderPathLine(paths));
  let text = rest
    .replace(UPDATED_LINE, () => `- Updated: ${formatClaimTime(marker.updated)}`)
    .replace(STAGE_LINE, () => `- Stage: ${marker.stage}`);
  if (note !== undefined) {
    const line = `- Note: ${note.replace(/\s+/g, ' ').trim()}`;
    text = NOTE_LINE.test(text) ? text.replace(NOTE_LINE, () => line) : `${text}\n${line}`;
  }
  return `${renderClaimMarker(marker)}${text}`;
}

/**
 * `rest` (everything from the first line's newline on) with `line` as its first line: a path
 * line there, valid or not, is replaced (docs/protocol.md §10: only the second line is read).
 */
function withPathLine(rest: string, line: string): string {
  if (!rest.startsWith(`\n${PATH_LINE_PREFIX}`)) return `\n${line}${rest}`;
  const start = 1;
  const end = rest.indexOf('\n', start);
  const old = end === -1 ? rest.slice(start) : rest.slice(start, end);
  const cr = old.endsWith('\r') ? '\r' : '';
  return `${rest.slice(0, start)}${line}${cr}${end === -1 ? '' : rest.slice(end)}`;
}
