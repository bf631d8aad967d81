import type { ClaimComment } from './liveness.js';
import { parseClaimMarker } from './marker.js';
import { hasName } from './names.js';
import type { ThreadComment } from './types.js';

const TRUSTED_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

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
