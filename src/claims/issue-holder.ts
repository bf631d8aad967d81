import type { DecideConfig } from './decide-config.js';
import { type ClaimComment, findHolder } from './liveness.js';
import { hasName } from './names.js';

/** What an issue shows of its liveness besides its claims: open or not, and its labels. */
interface IssueLiveness {
  readonly open: boolean;
  readonly labels: readonly string[];
}

/**
 * The claim a pin exempts from going stale (docs/protocol.md §16): with people's claims on and
 * the pinned label on the issue (the label is the state), the oldest unreleased claim, the one
 * that holds unless a person or an older path holder takes the issue. `claims` are trusted
 * claims (trustedClaims).
 */
export function pinnedClaim(
  claims: readonly ClaimComment[],
  labels: readonly string[],
  config: Pick<DecideConfig, 'people'>,
): ClaimComment | undefined {
  if (!config.people || !hasName(labels, config.people.pinnedLabel)) return undefined;
  let oldest: ClaimComment | undefined;
  for (const claim of claims) {
    if (claim.marker.stage === 'released') continue;
    if (oldest === undefined || claim.comment.id < oldest.comment.id) oldest = claim;
  }
  return oldest;
}

/**
 * The agent holder of an issue as every surface reads it (docs/protocol.md §3, §16): the
 * oldest live claim, a pinned one live past its window. The API's reads and writes, the
 * client's direct mode and the reconcile all ask this, so no surface shows a pinned claim as
 * free while the issue keeps its labels.
 */
export function issueHolder(
  claims: readonly ClaimComment[],
  issue: IssueLiveness,
  config: Pick<DecideConfig, 'people' | 'staleAfterMs'>,
  now: Date,
): ClaimComment | null {
  const pinned = pinnedClaim(claims, issue.labels, config);
  return findHolder(claims, issue.open, config.staleAfterMs, now, pinned);
}
