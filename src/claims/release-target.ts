import type { DecideConfig } from './decide-config.js';
import { graceHold } from './grace.js';
import { issueHolder } from './issue-holder.js';
import type { ClaimComment } from './liveness.js';
import { sameName } from './names.js';

/** Who asks for a release: a session of a login, or a maintainer for whoever holds it. */
type Releaser =
  | { readonly login: string; readonly session: string }
  | { readonly administrative: true };

/**
 * The claim a release of an issue finalises (docs/protocol.md §8, §17), or null when there is
 * none for this releaser: the live holder, when it is the releaser's own (same author, same
 * session) or the release is administrative; with no live holder, the stale claim in its
 * grace, for its own session only ("I'm done, don't wait for me": the issue is free at once).
 * Another session's release is refused either way. `claims` are trusted claims, oldest first.
 * Pure.
 */
export function releaseTarget(
  claims: readonly ClaimComment[],
  issue: { readonly open: boolean; readonly labels: readonly string[] },
  config: Pick<DecideConfig, 'people' | 'staleAfterMs' | 'graceMs'>,
  releaser: Releaser,
  now: Date,
): ClaimComment | null {
  const holder = issueHolder(claims, issue, config, now);
  if ('administrative' in releaser) return holder;
  const own = (claim: ClaimComment) =>
    sameName(claim.comment.author, releaser.login) && claim.marker.session === releaser.session;
  if (holder) return own(holder) ? holder : null;
  const grace = graceHold(claims, issue, config, now);
  return grace && own(grace.claim) ? grace.claim : null;
}
