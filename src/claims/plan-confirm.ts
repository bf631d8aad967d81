import { type Claimant, type ClaimState, isAssigned } from './claim-state.js';
import { finaliseAction } from './finalise-action.js';
import type { ClaimComment } from './liveness.js';
import { lostTo } from './lost-to.js';
import { sameName } from './names.js';
import type { Action } from './plan.js';
import { type HalfMadeClaim, planAbandon } from './plan-abandon.js';
import type { ThreadComment } from './types.js';

/** What the read-back after posting a claim says, and what to write about it. */
type ConfirmPlan =
  /** The new claim holds the issue. */
  | { readonly kind: 'held'; readonly mine: ClaimComment }
  /**
   * Its author is not trusted to claim here, so it would hold nothing: `actions` undo it;
   * `cause` says why, for people.
   */
  | {
      readonly kind: 'untrusted';
      readonly cause: string;
      readonly actions: readonly Action[];
    }
  /** An older live claim won the race: `actions` finalise the new claim and its assignment. */
  | { readonly kind: 'lost'; readonly holder: ClaimComment; readonly actions: readonly Action[] }
  /** It was deleted, or does not read as live: `actions` undo what is left of it. */
  | {
      readonly kind: 'unconfirmed';
      readonly what: string;
      readonly gone: boolean;
      readonly actions: readonly Action[];
    };

/**
 * Reads the thread as it was after a claim was posted (docs/agents.md, "Races, in short": the holder is
 * computed again from the read-back): held, lost to an older claim (docs/protocol.md §3: the lowest comment id holds),
 * not counted at all, or gone. Pure: the read-back, what was written and the clock in.
 */
export function planConfirm(
  readback: ClaimState,
  written: HalfMadeClaim,
  claimant: Claimant,
  now: Date,
): ConfirmPlan {
  const id = written.posted.comment.id;
  const mine = readback.claims.find((claim) => claim.comment.id === id);
  const comment: ThreadComment | undefined = readback.thread.comments.find((c) => c.id === id);
  if (comment && !mine) {
    // docs/protocol.md §2: the app and every other client skip markers from untrusted
    // authors, so this claim would hold nothing; do not leave it looking like one.
    const cause = `@${comment.author} is not trusted to claim here (author_association ${comment.authorAssociation}); only owners, members, collaborators and the repository's trustedBots count`;
    return {
      kind: 'untrusted',
      cause,
      actions: planAbandon(readback, written, cause, claimant, now),
    };
  }
  const { holder } = readback;
  if (mine && holder === mine) return { kind: 'held', mine };
  if (mine && holder) {
    const spec = { own: true, outcome: 'abandoned', reason: 'lost', text: lostTo(holder) } as const;
    const actions: Action[] = [finaliseAction(claimant, mine, spec, now)];
    if (
      written.assigned &&
      !sameName(holder.comment.author, written.login) &&
      isAssigned(readback, written.login)
    ) {
      actions.push({ kind: 'unassign', login: written.login });
    }
    return { kind: 'lost', holder, actions };
  }
  const gone = comment === undefined;
  const what = gone
    ? `comment ${id} was deleted before it could be confirmed`
    : `comment ${id} does not read back as a live claim (is this machine's clock off by more than the stale window?)`;
  return {
    kind: 'unconfirmed',
    what,
    gone,
    actions: planAbandon(readback, written, what, claimant, now, gone),
  };
}
