import type { DecideConfig } from '../claims/decide-config.js';
import { overlaps, type PathOverlap } from '../claims/paths.js';
import type { AgentHolder } from '../claims/plan.js';
import type { IssueKey } from '../keys.js';
import { type PathCheckDeps, verifiedKeepers } from './verified-keepers.js';

/** A live holder of another issue whose paths a new claim would overlap. */
export interface PathConflict {
  /** The other issue's number (same repository). */
  readonly number: number;
  /** Its holder as its thread shows it: comment, author, session, branch, heartbeat, paths. */
  readonly holder: AgentHolder;
  /** `[asked entry, held entry]` pairs, in the order of the asked paths. */
  readonly pairs: readonly PathOverlap[];
}

/**
 * Who holds paths overlapping `paths` (canonical entries) in the repository of `key`,
 * verified from each holder's thread, for a claim about to be made on issue `key` (the
 * claims API's 409 `PATHS_CLAIMED`, docs/protocol.md §10). A new claim is younger than every
 * holder, so every keeper overlapping it counts. Paths touching nobody cost no GitHub call;
 * a thread that cannot be read throws (answer "unverifiable", never "free").
 */
export async function liveHoldersOverlapping(
  deps: PathCheckDeps,
  key: IssueKey,
  paths: readonly string[],
  config: DecideConfig,
  now: Date,
): Promise<PathConflict[]> {
  const wanted = [{ commentId: Number.POSITIVE_INFINITY, paths }];
  const { keepers } = await verifiedKeepers(deps, key, wanted, config, now);
  return keepers
    .map(({ number, holder }) => ({ number, holder, pairs: overlaps(paths, holder.paths) }))
    .filter((conflict) => conflict.pairs.length > 0);
}
