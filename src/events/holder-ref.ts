import { formatClaimTime } from '../claims/marker.js';
import type { HolderSummary } from '../claims/plan.js';

/**
 * Which claim held an issue: an agent's comment id, or a person's claim named by a string
 * ({@link holderRef}), never a number.
 */
export type HolderRef = number | string;

/**
 * The holder as the store records it between reconciles, so the next one can tell a change
 * of holder (docs/protocol.md §13): an agent's comment id; a person's login and assignment
 * time (`person:alice@2030-01-01T00:00:00Z`), so a person assigned again holds anew.
 */
export function holderRef(holder: HolderSummary | null): HolderRef | null {
  if (holder === null) return null;
  if (holder.kind === 'agent') return holder.commentId;
  return `person:${holder.author.toLowerCase()}@${formatClaimTime(holder.started)}`;
}

/** The login (lowercased) and assignment time of a person's {@link holderRef}. */
export function personOf(ref: string): { login: string; started: string } {
  const at = ref.lastIndexOf('@');
  return { login: ref.slice('person:'.length, at), started: ref.slice(at + 1) };
}
