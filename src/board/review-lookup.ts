import { hasName } from '../claims/names.js';
import { DEFAULT_NEEDS_REVIEW_LABEL } from '../claims/review.js';
import type { ChangeReview, ClaimChange } from '../store/board-records.js';
import type { IndexedIssue, Store } from '../store/store.js';

/** Since when the board looks for the change that sent an issue to review: all it keeps. */
const ALL_KEPT = new Date(0);

/** What the board knows of an issue in review: the latest change of its claims, if any. */
export interface InReview {
  /** The stale session's work, or null when unknown (the label added by hand, say). */
  readonly work: ChangeReview | null;
  /** The latest finalisation the history kept for the issue (its stale claim's author). */
  readonly change: ClaimChange | null;
}

/** Answers whether an indexed issue is in review, and what sent it there. */
type ReviewLookup = (issue: IndexedIssue) => Promise<InReview | null>;

/**
 * docs/protocol.md §17 on the board: an open issue is in review while it carries its
 * repository's needs-review label (the name the last read of claims.yml recorded, the default
 * unless known); its work is the one the latest change in the board's history names, so a
 * review that ended before the label was added again by hand names none. One store read per
 * repository and one of the history per view; no GitHub call.
 */
export function reviewLookup(store: Store): ReviewLookup {
  const labels = new Map<string, Promise<string>>();
  let history: Promise<ClaimChange[]> | undefined;
  const labelOf = (owner: string, repo: string) => {
    const name = `${owner}/${repo}`.toLowerCase();
    let label = labels.get(name);
    if (!label) {
      label = store
        .queueSettings({ owner, repo })
        .then((settings) => settings?.needsReview ?? DEFAULT_NEEDS_REVIEW_LABEL);
      labels.set(name, label);
    }
    return label;
  };
  return async (issue) => {
    const { key } = issue;
    if (!hasName(issue.labels, await labelOf(key.owner, key.repo))) return null;
    history ??= store.claimChanges(ALL_KEPT);
    // Newest first: the first change of this issue is its latest.
    const change =
      (await history).find(
        (c) =>
          c.installationId === key.installationId &&
          c.number === key.number &&
          c.repo.toLowerCase() === `${key.owner}/${key.repo}`.toLowerCase(),
      ) ?? null;
    return { work: change?.review ?? null, change };
  };
}
