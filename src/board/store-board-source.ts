import { isFreeForAgents, isLiveClaim, liveClaims } from '../read-model/live-claims.js';
import type { IndexedClaim, IndexedIssue, Store } from '../store/store.js';
import {
  type BoardClaim,
  type BoardSource,
  REVIEW_STAGE,
  type VisibleRepos,
  visibleRepoKey,
} from './board-source.js';
import { type InReview, reviewLookup } from './review-lookup.js';

/**
 * The board's facts from the app's store: its rows are the live claims of the open-issue
 * index that the work queue answers from (docs/protocol.md §9), so the board and the queue
 * show one holder; the history of claim changes; and, from the same index, the claimable
 * counts (open issues with no live claim; a repository's `queue.labels` and `queue.exclude`
 * are the work queue's business and are not read here, as that would cost a config read per
 * view).
 */
export function storeBoardSource(store: Store): BoardSource {
  const visibleOf = (visible: VisibleRepos, item: { installationId: number; repo: string }) =>
    visible.has(visibleRepoKey(item.installationId, item.repo));
  return {
    async liveClaims(visible, now) {
      const rows: BoardClaim[] = [];
      const inReview = reviewLookup(store);
      for (const { issue, claim } of await liveClaims(store, now)) {
        const row = boardClaimOf(issue, claim);
        if (!visibleOf(visible, row)) continue;
        // docs/protocol.md §17: a live holder when the label was added keeps its claim.
        const review = await inReview(issue);
        rows.push(review ? { ...row, review: review.work } : row);
      }
      return rows;
    },
    async reviewRows(visible, now) {
      const rows: BoardClaim[] = [];
      const inReview = reviewLookup(store);
      for (const entry of await store.openIssues()) {
        const { issue } = entry;
        if (isLiveClaim(entry.claim, now)) continue;
        const row = { installationId: issue.key.installationId, repo: repoOf(issue) };
        if (!visibleOf(visible, row)) continue;
        const review = await inReview(issue);
        if (review) rows.push(reviewRowOf(issue, review));
      }
      return rows;
    },
    async claimableCounts(visible) {
      const now = new Date();
      const inReview = reviewLookup(store);
      const counts = new Map<string, number>();
      for (const entry of await store.openIssues()) {
        const { issue } = entry;
        const key = visibleRepoKey(
          issue.key.installationId,
          `${issue.key.owner}/${issue.key.repo}`,
        );
        if (!visible.has(key)) continue;
        // Every indexed repository gets a count, 0 when all its open issues are held (or
        // waited for by people, docs/protocol.md §16, or in review, §17).
        const free = isFreeForAgents(entry, now) && !(await inReview(issue));
        counts.set(key, (counts.get(key) ?? 0) + (free ? 1 : 0));
      }
      return counts;
    },
    async recentChanges(visible, since) {
      return (await store.claimChanges(since)).filter((change) => visibleOf(visible, change));
    },
  };
}

/** A live claim of the index and its issue as the board's row. */
function boardClaimOf(issue: IndexedIssue, claim: IndexedClaim): BoardClaim {
  return {
    ...issueFields(issue),
    kind: claim.kind ?? 'agent',
    commentId: claim.commentId,
    commentUrl: claim.url || issue.url,
    holder: claim.author,
    avatarUrl: claim.avatarUrl ?? '',
    session: claim.session,
    branch: claim.branch,
    stage: claim.stage,
    paths: claim.paths ?? [],
    started: claim.started,
    heartbeat: claim.heartbeat,
    staleAt: claim.staleAt,
  };
}

const repoOf = (issue: IndexedIssue) => `${issue.key.owner}/${issue.key.repo}`;

/** What every board row says of its issue, whoever holds it. */
function issueFields(issue: IndexedIssue) {
  return {
    installationId: issue.key.installationId,
    repo: repoOf(issue),
    number: issue.key.number,
    title: issue.title,
    url: issue.url,
  };
}

/**
 * An issue in review that nobody holds as the board's row (docs/protocol.md §17): whose work
 * it is (the stale claim's author and session, when the history kept the change), its branch,
 * and no times of a live claim: it awaits a maintainer, not a heartbeat.
 */
function reviewRowOf(issue: IndexedIssue, review: InReview): BoardClaim {
  const { change, work } = review;
  return {
    ...issueFields(issue),
    kind: 'review',
    review: work,
    commentId: change?.commentId ?? null,
    commentUrl: issue.url,
    holder: change?.author ?? '',
    avatarUrl: '',
    session: change?.session ?? null,
    branch: work?.branch ?? null,
    stage: REVIEW_STAGE,
    paths: [],
    started: change?.at ?? issue.updatedAt,
    heartbeat: change?.at ?? issue.updatedAt,
    staleAt: null,
  };
}
