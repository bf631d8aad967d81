import { type CommandResult, ok } from '../../core/command-result.js';
import { type ClaimView, describeClaim } from './claim-view.js';

/**
 * The answer of a claim by the session already holding `name`, noting where the request's
 * branch or lane (its public tag) differs from what the claim records. The same in direct
 * and API mode.
 */
export function resumedResult(
  name: string,
  view: ClaimView,
  branch: string,
  lane: string,
): CommandResult {
  const notes: string[] = [];
  if (view.branch !== branch) notes.push(`the claim records branch ${view.branch}, not ${branch}`);
  if (view.lane !== lane) notes.push('the claim records another lane');
  return ok(
    [
      `resumed ${name}: this session already holds it: ${describeClaim(view)}`,
      ...notes.map((note) => `Note: ${note}; status updates keep what the claim records.`),
    ].join('\n'),
    { issue: name, action: 'resumed', claim: view },
  );
}
