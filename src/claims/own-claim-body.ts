import type { Claimant } from './claim-state.js';
import { renderClaimComment } from './comment.js';
import { publicIdentity, taggedMarker } from './public-identity.js';
import type { ClaimMarker } from './types.js';

const TAKEOVER_LINE =
  /^- Takeover: replaces claim comment ([1-9][0-9]*) \(session ([^\s)]+)\)\r?$/m;
const NOTE_LINE = /^- Note: (.*?)\r?$/m;

/** How to treat the note of the comment being rewritten. */
export interface OwnClaimBodyOptions {
  readonly key: Uint8Array;
  readonly guard: Claimant['guard'];
  /** The comment's current body, whose Takeover line (and note, with keepNote) carry over. */
  readonly previousBody?: string;
  /** The note to write; folded and limited to 280 characters by renderClaimComment. */
  readonly note?: string | undefined;
  /** Without a new note, keep the previous one (release) rather than drop it (status). */
  readonly keepNote?: boolean;
}

/**
 * The whole body of a session's own claim comment, rendered afresh from its marker. Session
 * and lane are written as keyed tags even when the comment was a legacy one with plain
 * values: the session's own writes never republish them (Praetor protocol: "sessions and lanes are
 * written as keyed identity tags"). The comment's Takeover line is kept, its session tagged
 * the same way; a kept note that the guard would refuse is dropped rather than republished.
 */
export function ownClaimBody(marker: ClaimMarker, options: OwnClaimBodyOptions): string {
  const { key, previousBody = '' } = options;
  const tagged = taggedMarker(marker, key);
  const takeover = TAKEOVER_LINE.exec(previousBody);
  let note = options.note;
  if (note === undefined && options.keepNote) {
    const previous = NOTE_LINE.exec(previousBody)?.[1];
    if (previous !== undefined && options.guard.find(previous) === null) note = previous;
  }
  return renderClaimComment(tagged, {
    ...(note === undefined ? {} : { note }),
    ...(takeover
      ? {
          takeover: {
            commentId: Number(takeover[1]),
            session: publicIdentity(key, 'session', takeover[2]!),
          },
        }
      : {}),
  });
}
