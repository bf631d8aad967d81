import { formatClaimTime } from '../../claims/marker.js';
import type { AgentHolder } from '../../claims/plan.js';
import type { PublicClaim } from '../../claims/public-claim.js';
import { type IssueKey, issueRef } from '../../keys.js';
import type { PathConflict } from '../../path-holders/live-holders-overlapping.js';
import { ApiError } from '../answers/api-error.js';
import { holderObject } from '../answers/serialise.js';

/** One contested path of a 409 PATHS_CLAIMED (docs/protocol.md §10). */
interface ContestedPath {
  /** The caller's entry. */
  readonly path: string;
  /** The holder's entry it overlaps (equal, or one under the other's directory). */
  readonly heldPath: string;
  readonly heldBy: PublicClaim;
  readonly claimAgeMinutes: number;
  /** The holder is quiet: its heartbeat is older than a third of its window (see isQuiet). */
  readonly isStale: boolean;
  readonly warning: string;
  readonly recovery: { readonly action: 'wait' | 'ask'; readonly message: string };
}

/**
 * docs/protocol.md §10: a holder whose heartbeat is older than a third of its stale window is
 * quiet, and the hint is `ask` rather than `wait`. It is a hint, not permission: the holder
 * keeps its paths until it is stale by §3, and then its paths are free without anyone asking.
 */
export function isQuiet(holder: AgentHolder, staleAfterMs: number, now: Date): boolean {
  return now.getTime() - holder.heartbeat.getTime() > staleAfterMs / 3;
}

/** Whole minutes since the holder's claim started (never negative, whatever the clocks say). */
function claimAgeMinutes(holder: AgentHolder, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - holder.started.getTime()) / 60_000));
}

/**
 * The contested paths of a claim on `key`: one entry per caller's entry and held entry that
 * overlap, in the order of the caller's paths, then the holders' comment ids.
 */
function contestedPaths(
  key: IssueKey,
  paths: readonly string[],
  conflicts: readonly PathConflict[],
  staleAfterMs: number,
  now: Date,
): ContestedPath[] {
  const rows: Array<ContestedPath & { order: number; commentId: number }> = [];
  for (const { number, holder, pairs } of conflicts) {
    const where = { ...key, number };
    const heldBy = holderObject(where, holder, staleAfterMs);
    const age = claimAgeMinutes(holder, now);
    const quiet = isQuiet(holder, staleAfterMs, now);
    for (const [path, heldPath] of pairs) {
      rows.push({
        order: paths.indexOf(path),
        commentId: holder.commentId,
        path,
        heldPath,
        heldBy,
        claimAgeMinutes: age,
        isStale: quiet,
        warning: `${holder.author} claimed ${heldPath} ${age} min ago (${issueRef(where)})`,
        recovery: quiet
          ? {
              action: 'ask',
              message: `@${holder.author} has been quiet since ${formatClaimTime(holder.heartbeat)}: ask on ${issueRef(where)} whether ${heldPath} is still needed; it stays held until ${heldBy.staleAt} unless released`,
            }
          : {
              action: 'wait',
              message: `wait until ${issueRef(where)} is released (at the latest ${heldBy.staleAt}, if its heartbeat stops), or claim without ${path}`,
            },
      });
    }
  }
  return rows
    .sort((a, b) => a.order - b.order || a.commentId - b.commentId)
    .map(({ order: _order, commentId: _commentId, ...row }) => row);
}

/**
 * 409 PATHS_CLAIMED (docs/protocol.md §10): the paths are held by live holders of other
 * issues; `details.conflicts` names each. `finalised`: the caller's comment posted and then
 * finalised by the app's enforcement (a racing claim with a lower comment id kept the paths).
 */
export function pathsClaimed(
  key: IssueKey,
  paths: readonly string[],
  conflicts: readonly PathConflict[],
  staleAfterMs: number,
  now: Date,
  finalised?: number,
): ApiError {
  const contested = contestedPaths(key, paths, conflicts, staleAfterMs, now);
  const named = contested
    .map((c) => `${c.path} (${c.heldBy.issue} by @${c.heldBy.author})`)
    .join(', ');
  const written = finalised
    ? `your comment ${finalised} was finalised as abandoned`
    : 'nothing was written';
  return new ApiError(
    409,
    'PATHS_CLAIMED',
    `paths held by other claims of ${key.owner}/${key.repo}: ${named}; ${written}: wait, ask the holder, or claim without those paths`,
    { conflicts: contested, ...(finalised ? { finalised } : {}) },
  );
}
