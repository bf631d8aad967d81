import type { ClaimComment } from '../../../claims/liveness.js';
import { type ClientError, refused } from '../../core/client-error.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import type { IssueState } from '../../io/issue-state.js';
import { type ClaimView, describeClaim, viewIn } from './claim-view.js';

/** What a held refusal says besides the holder. */
interface HeldRefusalOptions {
  readonly lostRace?: boolean;
  readonly finalised?: number;
  readonly cleanupFailed?: boolean;
}

/**
 * The refusal while another session holds the issue (docs/agents.md, "Commands": `claim`): it names
 * the holder's session, lane, branch, stage and last update. `lostRace` says the session
 * wrote a claim of its own and found on read-back that an older one won.
 */
export function heldRefusal(
  state: IssueState,
  holder: ClaimComment,
  options: HeldRefusalOptions = {},
): ClientError {
  const view = viewIn(state, holder);
  return heldRefusalOf(formatIssueRef(state.ref), view, options);
}

/**
 * The refusal while another session's stale claim is in its grace (docs/protocol.md §17): only
 * that session may claim the issue again until `retryAt`, the end of the grace. Direct and API
 * mode alike.
 */
export function inGraceRefusalOf(name: string, view: ClaimView, retryAt: string): ClientError {
  return refused(
    `${name} is in grace for another session's stale claim until ${retryAt}: only that session may claim it again; wait until then or pick another issue: ${describeClaim(view)}`,
    { issue: name, reason: 'in-grace', holder: view, retryAt },
  );
}

/** The held refusal of the issue `name` and its holder's view (direct and API mode alike). */
export function heldRefusalOf(
  name: string,
  view: ClaimView,
  options: HeldRefusalOptions = {},
): ClientError {
  const lines = [
    options.lostRace
      ? `${name}: another session claimed it first; its claim holds the issue: ${describeClaim(view)}`
      : `${name} is held by another session: ${describeClaim(view)}`,
  ];
  if (options.finalised !== undefined) {
    lines.push(`This session's claim in comment ${options.finalised} was finalised as abandoned.`);
  }
  if (options.cleanupFailed) {
    lines.push(
      "This session's losing claim comment could not be finalised; the app or the next command will.",
    );
  }
  return refused(lines.join('\n'), {
    issue: name,
    reason: options.lostRace ? 'lost-race' : 'held',
    holder: view,
    ...(options.finalised === undefined ? {} : { finalised: options.finalised }),
  });
}
