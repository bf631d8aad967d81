import { isLiveClaim } from '../api/query-issues.js';
import type { Store } from '../store/store.js';
import { type BoardSource, type VisibleRepos, visibleRepoKey } from './board-source.js';

/**
 * The board's facts from the app's store: the rows every reconcile records, the history of
 * claim changes, and the work queue's index of open issues for the claimable counts (open
 * issues with no live claim; a repository's `queue.labels` and `queue.exclude` are the work
 * queue's business and are not read here, as that would cost a config read per view).
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
    claimableCounts:
      options.claimableCounts ??
      (async (visible) => {
        const now = new Date();
        const counts = new Map<string, number>();
        for (const { issue, claim } of await store.openIssues()) {
          const key = visibleRepoKey(
            issue.key.installationId,
            `${issue.key.owner}/${issue.key.repo}`,
          );
          if (!visible.has(key)) continue;
          // Every indexed repository gets a count, 0 when all its open issues are held.
          counts.set(key, (counts.get(key) ?? 0) + (isLiveClaim(claim, now) ? 0 : 1));
        }
        return counts;
      }),
    async recentChanges(visible, since) {
      return (await store.claimChanges(since)).filter((change) => visibleOf(visible, change));
    },
  };
}
