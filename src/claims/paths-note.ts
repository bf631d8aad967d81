import type { PathHolderFact } from './issue-facts.js';
import type { ClaimComment } from './liveness.js';
import { markdownCode } from './markdown-code.js';

/** The first line of the note telling an author their claim lost its paths (§10). */
export function pathsNoteTag(commentId: number): string {
  return `<!-- claim-warden note=paths comment=${commentId} -->`;
}

/**
 * Entries and sessions go in code spans through markdownCode, the one renderer of untrusted
 * text: a segment may begin with `@`, which must not mention anyone.
 */
export function pathsNote(
  claim: ClaimComment,
  { other, held }: { other: PathHolderFact; held: readonly string[] },
): string {
  const paths = held.map((entry) => markdownCode(entry)).join(', ');
  return [
    pathsNoteTag(claim.comment.id),
    `@${claim.comment.author} the claim in comment ${claim.comment.id} (session ${markdownCode(claim.marker.session)}) names paths already held by ${other.issue} (comment ${other.commentId}, session ${markdownCode(other.session)}): ${paths}. It has been released as abandoned; claim again without those paths, or wait until that claim ends.`,
  ].join('\n');
}
