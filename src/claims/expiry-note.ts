import type { BranchWork } from './branch-work.js';
import { hasNote } from './has-note.js';
import type { IssueFacts } from './issue-facts.js';
import { type ClaimComment, heartbeat } from './liveness.js';
import { markdownCode } from './markdown-code.js';
import { formatClaimTime } from './marker.js';
import { sameName } from './names.js';
import { reviewTag, workSentence } from './review.js';

/** The first line of the note the app posts when a claim expires; makes the note idempotent. */
export function expiryNoteTag(commentId: number): string {
  return `<!-- claim-warden note=expired comment=${commentId} -->`;
}

const EXPIRY_TAG = /^<!-- claim-warden note=expired comment=(\d+) -->$/;

/** The claim comment an expiry note is about (its first line, expiryNoteTag), or null. */
export function expiredClaimOf(body: string): number | null {
  const match = EXPIRY_TAG.exec(body.split('\n')[0]?.replace(/\r$/, '') ?? '');
  return match ? Number(match[1]) : null;
}

/** Whether the app already noted that this claim expired. */
export function hasExpiryNote(facts: IssueFacts, commentId: number): boolean {
  return hasNote(facts, expiryNoteTag(commentId));
}

/** The note telling an author their claim went stale, mentioning whom §13 names. */
export function expiryNote(
  claim: ClaimComment,
  since: string,
  notify: readonly string[],
  work?: BranchWork,
): string {
  const others = notify.filter((target) => !sameName(target, claim.comment.author));
  const author = claim.comment.author;
  if (work) {
    // docs/protocol.md §17: the hidden second line records the review for later readers.
    return [
      expiryNoteTag(claim.comment.id),
      reviewTag(author, work),
      `${workSentence(author, work)} The claim in comment ${claim.comment.id} (session ${markdownCode(claim.marker.session)}) went stale: no update since ${formatClaimTime(heartbeat(claim))}, stale since ${since}. The issue is labelled for review and is not offered to other sessions until a maintainer removes the label; @${author} may claim it again to finish the work.`,
      ...(others.length > 0 ? [`cc ${others.map((target) => `@${target}`).join(' ')}`] : []),
    ].join('\n');
  }
  return [
    expiryNoteTag(claim.comment.id),
    `@${claim.comment.author} the claim in comment ${claim.comment.id} (session ${markdownCode(claim.marker.session)}) went stale: no update since ${formatClaimTime(heartbeat(claim))}, stale since ${since}. It has been released as abandoned; claim the issue again to go on.`,
    ...(others.length > 0 ? [`cc ${others.map((target) => `@${target}`).join(' ')}`] : []),
  ].join('\n');
}
