import { renderClaimComment } from '../claims/comment.js';
import { formatClaimTime, renderClaimMarker } from '../claims/marker.js';
import type { ClaimMarker } from '../claims/types.js';

/** Renders the comment a new API claim posts; `client` becomes "via <client>" (docs/protocol.md §8). */
export function newClaimBody(
  marker: ClaimMarker,
  options: {
    note?: string | undefined;
    client?: string | undefined;
    takeover?: { commentId: number; session: string } | undefined;
  },
): string {
  const body = renderClaimComment(marker, {
    ...(options.note === undefined ? {} : { note: options.note }),
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
 * along, the note replaced when one is given; the rest, the people's text, kept.
 */
export function renewedBody(body: string, marker: ClaimMarker, note?: string): string {
  const newline = body.indexOf('\n');
  const rest = newline === -1 ? '' : body.slice(newline);
  let text = rest
    .replace(UPDATED_LINE, () => `- Updated: ${formatClaimTime(marker.updated)}`)
    .replace(STAGE_LINE, () => `- Stage: ${marker.stage}`);
  if (note !== undefined) {
    const line = `- Note: ${note.replace(/\s+/g, ' ').trim()}`;
    text = NOTE_LINE.test(text) ? text.replace(NOTE_LINE, () => line) : `${text}\n${line}`;
  }
  return `${renderClaimMarker(marker)}${text}`;
}
