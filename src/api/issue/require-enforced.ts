import { issueRef } from '../../keys.js';
import { ApiError } from '../answers/api-error.js';
import type { IssueAtHand } from './on-issue.js';

/**
 * 409 NOT_ENFORCED where the repository's rollout keys (docs/protocol.md §15) leave the app
 * no say: with `enabled: false` the app leaves the repository alone, so the API takes,
 * renews and releases no claim there; a write with the app's own token (an administrative
 * release) also needs `mode: enforce`, as observe mode writes nothing.
 */
export function requireEnforced(at: IssueAtHand, writer: 'caller' | 'app'): void {
  const file = `${at.key.owner}/${at.key.repo}/.github/claims.yml`;
  if (!at.config.enabled) {
    throw new ApiError(
      409,
      'NOT_ENFORCED',
      `claim-warden is turned off on ${at.key.owner}/${at.key.repo} (enabled: false in ${file}): it enforces no claim there; coordinate another way or ask a maintainer to enable it`,
      { enabled: false, mode: at.config.mode },
    );
  }
  if (writer === 'app' && at.config.mode === 'observe') {
    throw new ApiError(
      409,
      'NOT_ENFORCED',
      `${at.key.owner}/${at.key.repo} is in observe mode (mode: observe in ${file}): the app writes nothing there, so it cannot release the claim on ${issueRef(at.key)}; its session can release it`,
      { enabled: true, mode: 'observe' },
    );
  }
}
