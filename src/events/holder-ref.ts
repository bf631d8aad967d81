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
  // docs/protocol.md §18: a hosted agent, named like a person.
  if (holder.kind === 'hosted') {
    return `hosted:${holder.author.toLowerCase()}@${formatClaimTime(holder.started)}`;
  }
  return `person:${holder.author.toLowerCase()}@${formatClaimTime(holder.started)}`;
}

/**
 * The login (lowercased) and start of a person's or a hosted agent's {@link holderRef}, and
 * which of the two it is.
 */
export function personOf(ref: string): {
  login: string;
  started: string;
  kind: 'person' | 'hosted';
} {
  const at = ref.lastIndexOf('@');
  const colon = ref.indexOf(':');
  const kind = ref.startsWith('hosted:') ? 'hosted' : 'person';
  return { login: ref.slice(colon + 1, at), started: ref.slice(at + 1), kind };
}
