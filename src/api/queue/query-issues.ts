import { hasName, sameName } from '../../claims/names.js';
import { type PublicClaim, type PublicIssue, publicClaimOf } from '../../claims/public-claim.js';
import { DEFAULT_NEEDS_REVIEW_LABEL } from '../../claims/review.js';
import type { QueueSettings } from '../../config/repo-config.js';
import { issueRef } from '../../keys.js';
import { isFreeForAgents, isLiveClaim } from '../../read-model/live-claims.js';
import type { IndexedEntry } from '../../store/store.js';
import { queueIssueObject } from '../answers/serialise.js';

/** The filters of `GET /api/claims/v1/issues` (docs/protocol.md §9), validated. */
export interface IssueQuery {
  readonly claimable?: boolean;
  /** docs/protocol.md §17: the issues carrying the needs-review label (true), or the others. */
  readonly needsReview?: boolean;
  /** A login; `me` is resolved to the caller's before the query runs. */
  readonly claimedBy?: string;
  readonly assignedTo?: string;
  /** `owner/name`. */
  readonly repo?: string;
  readonly label?: string;
  readonly limit: number;
  readonly after?: QueueCursor;
}

/** Where a page ended: the last item's sort key. */
export type QueueCursor = readonly [createdAt: string, repo: string, number: number];

/** One item of the queue. */
interface QueueItem {
  readonly issue: PublicIssue;
  readonly claim: PublicClaim | null;
}

/** What the query needs to know per repository, resolved beforehand (cached). */
interface QueryContext {
  readonly now: Date;
  /** Whether the caller may see the repository (`owner/name`). */
  visible(repo: string): boolean;
  /** The repository's queue settings; null when its config is invalid (nothing is claimable). */
  settings(repo: string): QueueSettings | null;
}

/** The sort key of the queue: oldest issue first, then repository and number. */
function cursorOf(entry: IndexedEntry): QueueCursor {
  const { key } = entry.issue;
  return [entry.issue.createdAt, `${key.owner}/${key.repo}`.toLowerCase(), key.number];
}

function compare(a: QueueCursor, b: QueueCursor): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] - b[2];
}

/**
 * The work queue over the index (docs/protocol.md §9): filters combined with AND, oldest
 * first, one page. Pure: the index, the query and what is known of each repository in; the
 * page and the cursor of the next one out. The API, `claim-warden list` and the MCP tool all
 * answer from it, so a loop that queries one and claims through another sees one set. An
 * issue a person holds, or people wait for, is never claimable (§16).
 */
export function queryIssues(
  entries: readonly IndexedEntry[],
  query: IssueQuery,
  context: QueryContext,
): { items: QueueItem[]; next: QueueCursor | null } {
  const matching: Array<{ entry: IndexedEntry; cursor: QueueCursor; live: boolean }> = [];
  for (const entry of entries) {
    const { issue } = entry;
    const repo = `${issue.key.owner}/${issue.key.repo}`;
    if (query.repo !== undefined && !sameName(query.repo, repo)) continue;
    if (!context.visible(repo)) continue;
    const cursor = cursorOf(entry);
    if (query.after && compare(cursor, query.after) <= 0) continue;
    const live = isLiveClaim(entry.claim, context.now);
    if (query.label !== undefined && !hasName(issue.labels, query.label)) continue;
    if (query.assignedTo !== undefined && !hasName(issue.assignees, query.assignedTo)) continue;
    if (
      query.claimedBy !== undefined &&
      !(live && sameName(entry.claim!.author, query.claimedBy))
    ) {
      continue;
    }
    if (query.claimable === false && !live) continue;
    const reviewing = needsReview(issue.labels, context.settings(repo));
    if (query.needsReview !== undefined && reviewing !== query.needsReview) continue;
    if (
      query.claimable === true &&
      (!isFreeForAgents(entry, context.now) ||
        reviewing ||
        awaitsCompare(entry) ||
        !claimableByConfig(issue.labels, context.settings(repo)))
    ) {
      continue;
    }
    matching.push({ entry, cursor, live });
  }
  matching.sort((a, b) => compare(a.cursor, b.cursor));
  const page = matching.slice(0, query.limit);
  const items = page.map(({ entry, live }) => ({
    issue: {
      ...queueIssueObject(entry.issue),
      needsReview: needsReview(
        entry.issue.labels,
        context.settings(`${entry.issue.key.owner}/${entry.issue.key.repo}`),
      ),
    },
    claim: live ? publicClaimOf(issueRef(entry.issue.key), entry.claim!) : null,
  }));
  const last = page[page.length - 1];
  return { items, next: matching.length > query.limit && last ? last.cursor : null };
}

/** docs/protocol.md §17: the issue carries the needs-review label (the default name unless known). */
function needsReview(labels: readonly string[], settings: QueueSettings | null): boolean {
  return hasName(labels, settings?.needsReview ?? DEFAULT_NEEDS_REVIEW_LABEL);
}

/**
 * docs/protocol.md §17: an agent's claim the index holds that has gone stale without being
 * finalised names a branch whose work is not known until a compare answers; until the
 * reconcile that finalises it, the issue is not offered.
 */
function awaitsCompare(entry: IndexedEntry): boolean {
  const { claim } = entry;
  return claim !== null && claim.kind !== 'person' && claim.stage !== 'released';
}

function claimableByConfig(labels: readonly string[], settings: QueueSettings | null): boolean {
  if (settings === null) return false;
  if (settings.labels.length > 0 && !settings.labels.some((l) => hasName(labels, l))) return false;
  return !settings.exclude.some((l) => hasName(labels, l));
}
