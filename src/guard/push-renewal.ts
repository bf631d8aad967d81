import { hasName, sameName } from '../claims/names.js';

/**
 * docs/protocol.md §11: only a push by the claim's author or a trusted bot renews it; a push
 * by anyone else renews nothing. Logins compare without case.
 */
export function pushMayRenew(
  author: string,
  pusher: string,
  trustedBots: readonly string[],
): boolean {
  return sameName(author, pusher) || hasName(trustedBots, pusher);
}

/**
 * Whether a push at `at` is too soon to be worth a write: the claim's last renewal `last` is
 * less than a tenth of the stale window older, so a burst of pushes costs one write.
 */
export function renewedTooRecently(last: Date, at: number, staleAfterMs: number): boolean {
  return at - last.getTime() < staleAfterMs / 10;
}
