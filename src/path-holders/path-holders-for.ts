import type { DecideConfig } from '../claims/decide-config.js';
import type { PathHolderFact } from '../claims/issue-facts.js';
import { isStale } from '../claims/liveness.js';
import { pathLineOf } from '../claims/paths.js';
import { trustedClaims } from '../claims/trusted-claims.js';
import type { IssueThread } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import { type PathCheckDeps, verifiedKeepers, type WantedPaths } from './verified-keepers.js';

/** The verified path holders to weigh, and which index entries were looked at. */
export interface PathCheck {
  /** Holders of other issues, verified from their threads, that decide() weighs. */
  readonly holders: readonly PathHolderFact[];
  /** Issue number → comment id of each index entry verified (kept or not). */
  readonly checked: ReadonlyMap<number, number>;
}

/**
 * The holders of other issues of the repository that this issue's live claims must give way
 * to (docs/protocol.md §10), for decide(): see verifiedKeepers. An issue whose live claims
 * name no paths costs not even a store read.
 */
export async function pathHoldersFor(
  deps: PathCheckDeps,
  key: IssueKey,
  thread: IssueThread,
  config: DecideConfig,
  now: Date,
): Promise<PathCheck> {
  if (!thread.open || thread.isPullRequest) return { holders: [], checked: new Map() };
  const { keepers, checked } = await verifiedKeepers(
    deps,
    key,
    livePaths(thread, config, now),
    config,
    now,
  );
  const holders = keepers.map(({ number, holder }) => ({
    issue: `${key.owner}/${key.repo}#${number}`,
    commentId: holder.commentId,
    session: holder.session,
    paths: holder.paths,
  }));
  return { holders, checked };
}

/** The valid path lines of the issue's trusted claims that may still hold. */
function livePaths(thread: IssueThread, config: DecideConfig, now: Date): WantedPaths[] {
  const out: WantedPaths[] = [];
  for (const claim of trustedClaims(thread.comments, config.trustedBots)) {
    if (claim.marker.stage === 'released' || isStale(claim, config.staleAfterMs, now)) continue;
    const line = pathLineOf(claim.comment.body);
    if (line.kind === 'valid') out.push({ commentId: claim.comment.id, paths: line.paths });
  }
  return out;
}
