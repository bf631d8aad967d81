import type { DecideConfig } from './decide-config.js';
import { hasNote } from './has-note.js';
import type { IssueFacts, PathHolderFact } from './issue-facts.js';
import type { ClaimComment } from './liveness.js';
import { overlaps, pathLineOf } from './paths.js';
import { pathsNote, pathsNoteTag } from './paths-note.js';
import type { Action, FinaliseReason } from './plan.js';
import type { Outcome } from './types.js';

/** A claim decide() finalises, why, and the reason line its comment gets. */
export interface Finalising {
  claim: ClaimComment;
  outcome: Outcome;
  reason: FinaliseReason;
  text: string;
}

/**
 * The fresh claims that may still hold, oldest first: walking up from the oldest, each claim
 * whose paths overlap a lower-id holder elsewhere is finalised (reason `paths`) until one
 * keeps; every claim after that one is left to lose to it as usual (docs/protocol.md §10).
 */
export function withoutPathLosers(
  fresh: readonly ClaimComment[],
  facts: IssueFacts,
  config: DecideConfig,
  finalising: Finalising[],
  notes: Action[],
): ClaimComment[] {
  const others = facts.pathHolders ?? [];
  if (others.length === 0) return [...fresh];
  const ordered = [...fresh].sort((a, b) => a.comment.id - b.comment.id);
  for (let i = 0; i < ordered.length; i++) {
    const claim = ordered[i]!;
    const conflict = pathConflict(claim, others);
    if (conflict === null) return ordered.slice(i);
    const { other, held } = conflict;
    const text = `paths held by ${other.issue} (comment ${other.commentId}, session ${other.session}): ${held.join(', ')}`;
    finalising.push({ claim, outcome: 'abandoned', reason: 'paths', text });
    if (config.notifyOnExpiry && !hasNote(facts, pathsNoteTag(claim.comment.id))) {
      notes.push({
        kind: 'post-note',
        forCommentId: claim.comment.id,
        body: pathsNote(claim, conflict),
      });
    }
  }
  return [];
}

/** The oldest holder elsewhere a claim's paths overlap, and its entries they meet; or null. */
function pathConflict(
  claim: ClaimComment,
  others: readonly PathHolderFact[],
): { other: PathHolderFact; held: string[] } | null {
  const line = pathLineOf(claim.comment.body);
  if (line.kind !== 'valid') return null;
  let winner: { other: PathHolderFact; held: string[] } | null = null;
  for (const other of others) {
    if (other.commentId >= claim.comment.id) continue;
    if (winner !== null && other.commentId > winner.other.commentId) continue;
    const pairs = overlaps(other.paths, line.paths);
    if (pairs.length === 0) continue;
    winner = { other, held: [...new Set(pairs.map(([held]) => held))] };
  }
  return winner;
}
