import { formatClaimTime, renderClaimMarker } from './marker.js';
import type { ClaimMarker } from './types.js';

const UPDATED_LINE = /^- Updated:.*?(\r?)$/;

/**
 * A claim comment body renewed at `at` (docs/protocol.md §11 branch heartbeat): the marker
 * line rendered again with `updated` = `at`, every other key kept, and the first `- Updated:`
 * line of the human text reading the same time. Nothing else changes, so the path line, the
 * note and the people's text stay as they were. Throws when `marker` cannot be written
 * (renderClaimMarker).
 */
export function renewedClaimBody(body: string, marker: ClaimMarker, at: Date): string {
  const lines = body.split('\n');
  const first = lines[0] ?? '';
  const cr = first.endsWith('\r') ? '\r' : '';
  lines[0] = `${renderClaimMarker({ ...marker, updated: at })}${cr}`;
  const index = lines.findIndex((line, i) => i > 0 && UPDATED_LINE.test(line));
  if (index !== -1) {
    const ending = UPDATED_LINE.exec(lines[index]!)?.[1] ?? '';
    lines[index] = `- Updated: ${formatClaimTime(at)}${ending}`;
  }
  return lines.join('\n');
}
