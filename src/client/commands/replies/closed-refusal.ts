import { type ClientError, refused } from '../../core/client-error.js';

/**
 * The refusal of a claim on a closed issue (seed: only the open state is claimable;
 * reopening stays a deliberate act), the same in direct and API mode.
 */
export function closedRefusal(name: string, stateReason: string | null | undefined): ClientError {
  const reason = stateReason ? ` (${stateReason})` : '';
  return refused(`${name} is closed${reason}; a claim needs an open issue. Nothing was written.`, {
    issue: name,
    reason: 'closed',
    state: 'closed',
    stateReason: stateReason ?? null,
  });
}
