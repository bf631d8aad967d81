import { parseClaimBody } from './claim-body.js';
import type { Claimant } from './claim-state.js';
import { renderClaimComment } from './comment.js';
import { publicIdentity, taggedMarker } from './public-identity.js';
import type { ClaimMarker } from './types.js';

/** How to treat the note of the comment being rewritten. */
interface OwnClaimBodyOptions {
  readonly key: Uint8Array;
  readonly guard: Claimant['guard'];
  /** The comment's current body, whose parts (path line, takeover, client, note) carry over. */
  readonly previousBody: string;
  /** The note to write; folded and limited to 280 characters by renderClaimComment. */
  readonly note?: string | undefined;
  /** Without a new note, keep the previous one (release) rather than drop it (status). */
  readonly keepNote?: boolean;
}

/**
 * The whole body of a session's own claim comment, rendered afresh from its parts with the
 * new marker: the path line (docs/protocol.md §10), the takeover and the client carry over,
 * so an edit never changes what the claim holds. Session and lane are written as keyed tags
 * even when the comment was a legacy one with plain values: the session's own writes never
 * republish them (docs/protocol.md §1 keyed identity tags), the takeover's session tagged the
 * same way. Other human text is not carried over, since it may name sessions in plain; a
 * kept note that the guard would refuse is dropped rather than republished.
 */
export function ownClaimBody(marker: ClaimMarker, options: OwnClaimBodyOptions): string {
  const { key } = options;
  const parts = parseClaimBody(options.previousBody);
  const previous = options.keepNote ? parts?.note : undefined;
  const kept = previous !== undefined && options.guard.find(previous) === null;
  return renderClaimComment(taggedMarker(marker, key), {
    paths: parts?.paths,
    client: parts?.client,
    note: options.note ?? (kept ? previous : undefined),
    takeover: parts?.takeover && {
      commentId: parts.takeover.commentId,
      session: publicIdentity(key, 'session', parts.takeover.session),
    },
  });
}
