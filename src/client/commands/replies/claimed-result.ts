import { type CommandResult, ok } from '../../core/command-result.js';
import { type ClaimView, describeClaim } from './claim-view.js';

/**
 * The answer of a claim that now holds `name`: claimed, or took over when it replaced stale
 * claims (the oldest is named). The same in direct and API mode.
 */
export function claimedResult(
  name: string,
  view: ClaimView,
  replaced: readonly ClaimView[],
): CommandResult {
  const took = replaced[0];
  return ok(
    took
      ? `took over ${name} from the stale claim in comment ${took.commentId} (session ${took.session}): ${describeClaim(view)}`
      : `claimed ${name}: ${describeClaim(view)}`,
    { issue: name, action: took ? 'took-over' : 'claimed', claim: view, replaced },
  );
}
