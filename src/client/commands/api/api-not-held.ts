import type { ClientError } from '../../core/client-error.js';
import { refused } from '../../core/client-error.js';

/**
 * The refusal of a status or release by a session the API says holds no live claim
 * (409 CLAIM_NOT_HELD, or a free issue): direct mode's `none` and `closed` reasons. The API
 * names no more (it does not say whether the claim went stale or was released), so neither
 * does this.
 */
export function apiNotHeld(name: string, state: 'open' | 'closed' | undefined): ClientError {
  const closed = state === 'closed';
  const base = closed
    ? `${name} is closed and this session holds no claim on it`
    : `${name}: this session holds no claim on it`;
  return refused(base, {
    issue: name,
    reason: closed ? 'closed' : 'none',
  });
}
