import { overlaps, type PathOverlap, pathMatcher } from '../claims/paths.js';
import type { IndexedPathHolder, Store } from '../store/store.js';

/** One repository of one installation. */
export interface RepoRef {
  readonly installationId: number;
  readonly owner: string;
  readonly repo: string;
}

/** A recorded path holder whose paths meet the asked ones, and how. */
export interface HolderOverlap {
  readonly holder: IndexedPathHolder;
  /** `[asked entry, held entry]` pairs, in the order of the asked paths. */
  readonly pairs: readonly PathOverlap[];
}

/**
 * Who holds paths overlapping `paths` (canonical entries) in one repository, from the
 * path-holder index alone: no GitHub call (docs/protocol.md §10). The index is what the last
 * reconcile of each issue found, so an answer that would refuse or finalise something must be
 * verified against the holder's thread first (see pathHoldersFor), never taken as fact.
 * `exceptIssue` leaves out the asking issue itself.
 */
export async function overlappingHolders(
  store: Store,
  repo: RepoRef,
  paths: readonly string[],
  options: { readonly exceptIssue?: number } = {},
): Promise<HolderOverlap[]> {
  if (paths.length === 0) return [];
  const holders = await store.pathHolders(repo.installationId, repo.owner, repo.repo);
  const found: HolderOverlap[] = [];
  const asked = pathMatcher(paths);
  for (const holder of holders) {
    if (holder.number === options.exceptIssue || !asked.touches(holder.paths)) continue;
    const pairs = overlaps(paths, holder.paths);
    if (pairs.length > 0) found.push({ holder, pairs });
  }
  return found;
}
