import type { DecideConfig } from './decide-config.js';
import type { IssueFacts } from './issue-facts.js';
import type { ClaimComment } from './liveness.js';
import { hasName } from './names.js';

/**
 * One read of an issue, as the session plans (planClaim, planStatus, planRelease) see it: the
 * thread's facts, the parts of the repository config a session's writes follow, the trusted
 * claims and who holds the issue, judged at `now`.
 */
export interface ClaimState {
  readonly thread: Pick<IssueFacts, 'open' | 'stateReason' | 'labels' | 'assignees' | 'comments'>;
  readonly config: Pick<DecideConfig, 'staleAfterMs' | 'graceMs' | 'labels' | 'assign'>;
  /** The trusted claim comments (docs/protocol.md §2), oldest first. */
  readonly claims: readonly ClaimComment[];
  /** docs/protocol.md §3: the oldest live claim by comment id, or null. */
  readonly holder: ClaimComment | null;
  /** The clock reading the liveness was judged at. */
  readonly now: Date;
}

/**
 * Who plans the writes: the key its session and lane are tagged with, and the check of what
 * its public text must not carry (a note that fails it is dropped, never republished).
 */
export interface Claimant {
  /** The HMAC key of identity tags; never printed. */
  readonly key: Uint8Array;
  /** The kind of protected value `text` carries, or null when it may be published. */
  readonly guard: { find(text: string): string | null };
}

/** True when the issue carries the label; GitHub compares label names without case. */
export function hasLabel(state: ClaimState, label: string): boolean {
  return hasName(state.thread.labels, label);
}

/** True when the login is assigned to the issue; logins compare without case. */
export function isAssigned(state: ClaimState, login: string): boolean {
  return hasName(state.thread.assignees, login);
}
