import type { Claimant, ClaimState } from '../../src/claims/claim-state.js';
import { findHolder } from '../../src/claims/liveness.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { Action } from '../../src/claims/plan.js';
import { trustedClaims } from '../../src/claims/trusted-claims.js';
import type { ClaimMarker, ThreadComment } from '../../src/claims/types.js';
import { DEFAULT_CONFIG, NOW } from '../helpers/thread-builder.js';

/** The claimant of the plan tests: a fixed key, and a guard that lets every text through. */
export const CLAIMANT: Claimant = { key: new Uint8Array(32).fill(7), guard: { find: () => null } };

/** One read of an issue, as readIssueState would make it of these facts. */
export function claimState(
  options: {
    comments?: readonly ThreadComment[];
    labels?: readonly string[];
    assignees?: readonly string[];
    open?: boolean;
    assign?: boolean;
  } = {},
): ClaimState {
  const open = options.open ?? true;
  const claims = trustedClaims(options.comments ?? [], []);
  return {
    thread: {
      open,
      stateReason: open ? null : 'completed',
      labels: options.labels ?? [],
      assignees: options.assignees ?? [],
      comments: options.comments ?? [],
    },
    config: { ...DEFAULT_CONFIG, assign: options.assign ?? true },
    claims,
    holder: findHolder(claims, open, DEFAULT_CONFIG.staleAfterMs, NOW),
    now: NOW,
  };
}

/** The actions without their bodies, so a table row reads like the rule (decide's too). */
export function kinds(actions: readonly Action[]): string[] {
  return actions.map((a) => {
    switch (a.kind) {
      case 'finalise':
        return `finalise ${a.commentId} ${a.outcome} (${a.reason})`;
      case 'post-note':
        return `note for ${a.forCommentId}`;
      case 'add-label':
      case 'remove-label':
        return `${a.kind} ${a.label}`;
      case 'assign':
      case 'unassign':
        return `${a.kind} ${a.login}`;
      case 'edit-claim':
      case 'delete-comment':
        return `${a.kind} ${a.commentId}`;
      default:
        return a.kind;
    }
  });
}

/** The marker an action writes (finalise, edit-claim, post-claim). */
export function writtenMarker(action: Action | undefined): ClaimMarker | null {
  return action && 'body' in action ? parseClaimMarker(action.body) : null;
}
