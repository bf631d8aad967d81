import { pathCovers } from '../claims/paths.js';
import type { IndexedPathHolder, Store } from '../store/store.js';
import type { RepoRef } from './overlapping-holders.js';

/** A recorded path holder and its entries that cover the file. */
export interface CoveringHolder {
  readonly holder: IndexedPathHolder;
  readonly entries: readonly string[];
}

/**
 * Which recorded path holders of a repository hold `file` (a repository path as GitHub lists
 * a pull request's files, not encoded): an entry naming it or a directory above it
 * (docs/protocol.md §10, §11). From the index alone, no GitHub call; liveness is the caller's
 * to judge from each holder's heartbeat and its thread.
 */
export async function holdersContaining(
  store: Store,
  repo: RepoRef,
  file: string,
): Promise<CoveringHolder[]> {
  const holders = await store.pathHolders(repo.installationId, repo.owner, repo.repo);
  const found: CoveringHolder[] = [];
  for (const holder of holders) {
    const entries = holder.paths.filter((entry) => pathCovers(entry, file));
    if (entries.length > 0) found.push({ holder, entries });
  }
  return found;
}
