import type { Store } from '../store/store.js';
import { type BoardSource, type VisibleRepos, visibleRepoKey } from './board-source.js';

/**
 * The board's facts from the app's store: the rows every reconcile records and the history
 * of claim changes. The store keeps no index of open issues without a claim, so claimable
 * counts come from `claimableCounts` when the app has such an index, else they are unknown.
 */
export function storeBoardSource(
  store: Store,
  options: { claimableCounts?: BoardSource['claimableCounts'] } = {},
): BoardSource {
  const visibleOf = (visible: VisibleRepos, item: { installationId: number; repo: string }) =>
    visible.has(visibleRepoKey(item.installationId, item.repo));
  return {
    async liveClaims(visible, now) {
      const rows = await store.liveClaimSummaries();
      return rows.filter(
        (row) => visibleOf(visible, row) && Date.parse(row.staleAt) > now.getTime(),
      );
    },
    claimableCounts: options.claimableCounts ?? (async () => null),
    async recentChanges(visible, since) {
      return (await store.claimChanges(since)).filter((change) => visibleOf(visible, change));
    },
  };
}
