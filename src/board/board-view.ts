import { FIXED_STAGES } from '../claims/marker.js';
import { sameName } from '../claims/names.js';
import type { ClaimChange } from '../store/board-records.js';
import { type BoardClaim, type BoardSource, REVIEW_STAGE, visibleRepoKey } from './board-source.js';
import type { Visibility } from './visible-repos.js';

/** The board's filters (docs/protocol.md §14); an empty string means "all". */
interface BoardFilters {
  readonly repo: string;
  readonly stage: string;
  readonly holder: string;
}

/** One repository's line: its live claims and how many open issues nobody holds. */
interface BoardRepoLine {
  readonly repo: string;
  readonly live: number;
  /** Null when the app keeps no index of open issues to count from. */
  readonly claimable: number | null;
}

/** Everything one board view shows; JSON-safe, so it is also `data.json`'s body. */
export interface BoardView {
  readonly generatedAt: string;
  readonly user: { readonly login: string; readonly avatarUrl: string };
  readonly filters: BoardFilters;
  readonly options: {
    readonly repos: readonly string[];
    readonly stages: readonly string[];
    readonly holders: readonly string[];
  };
  /**
   * The filtered live claims, the nearest to going stale first, then the issues in review
   * that nobody holds (kind `review`, docs/protocol.md §17).
   */
  readonly claims: readonly Omit<BoardClaim, 'installationId'>[];
  readonly repos: readonly BoardRepoLine[];
  /** The last 24 hours' expiries, losses and takeovers, newest first. */
  readonly changes: readonly Omit<ClaimChange, 'installationId'>[];
}

/** How far back the board lists changes. */
const CHANGES_WINDOW_MS = 24 * 3_600_000;

/** When a claim goes stale, for the order of the rows: one that does not expire comes last. */
function staleRank(claim: BoardClaim): number {
  return claim.staleAt === null ? Number.POSITIVE_INFINITY : Date.parse(claim.staleAt);
}

/** The filters of a query string, with an unknown repository read as "all". */
export function readFilters(query: URLSearchParams, visibility: Visibility): BoardFilters {
  const repo = (query.get('repo') ?? '').trim();
  const known = visibility.repos.find((r) => sameName(r.fullName, repo));
  return {
    repo: known?.fullName ?? '',
    stage: (query.get('stage') ?? '').trim().slice(0, 32),
    holder: (query.get('holder') ?? '').trim().slice(0, 64),
  };
}

/** Builds one board view from the source: a store read, no GitHub call. */
export async function boardView(
  source: BoardSource,
  visibility: Visibility,
  user: BoardView['user'],
  filters: BoardFilters,
  now: Date,
): Promise<BoardView> {
  const [live, reviewing, counts, changes] = await Promise.all([
    source.liveClaims(visibility.keys, now),
    source.reviewRows(visibility.keys, now),
    source.claimableCounts(visibility.keys),
    source.recentChanges(visibility.keys, new Date(now.getTime() - CHANGES_WINDOW_MS)),
  ]);
  const inRepo = (repo: string) => filters.repo === '' || sameName(repo, filters.repo);
  // docs/protocol.md §17: an issue in review that nobody holds has a row too, after the live.
  const claims = [...live, ...reviewing]
    .filter(
      (c) =>
        inRepo(c.repo) &&
        (filters.stage === '' || c.stage === filters.stage) &&
        (filters.holder === '' || sameName(c.holder, filters.holder)),
    )
    .sort((a, b) => staleRank(a) - staleRank(b) || a.number - b.number)
    .map(({ installationId: _, ...claim }) => claim);

  const liveByRepo = new Map<string, number>();
  for (const c of live) {
    const key = visibleRepoKey(c.installationId, c.repo);
    liveByRepo.set(key, (liveByRepo.get(key) ?? 0) + 1);
  }
  const repos = visibility.repos
    .filter((r) => inRepo(r.fullName))
    .map((r) => {
      const key = visibleRepoKey(r.installationId, r.fullName);
      return {
        repo: r.fullName,
        live: liveByRepo.get(key) ?? 0,
        claimable: counts?.get(key) ?? null,
      };
    });

  const fixRounds = live.map((c) => c.stage).filter((s) => s.startsWith('fix-round-'));
  return {
    generatedAt: now.toISOString(),
    user,
    filters,
    options: {
      repos: visibility.repos.map((r) => r.fullName),
      stages: [
        ...FIXED_STAGES.filter((s) => s !== 'released'),
        ...new Set(fixRounds),
        ...(reviewing.length > 0 ? [REVIEW_STAGE] : []),
      ],
      holders: [...new Set(live.map((c) => c.holder))].sort((a, b) => a.localeCompare(b)),
    },
    claims,
    repos,
    changes: changes
      .filter((c) => inRepo(c.repo))
      .map(({ installationId: _, ...change }) => change),
  };
}
