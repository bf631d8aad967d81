import { formatClaimTime } from '../claims/marker.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import type { IndexedIssue } from '../store/store.js';

/** An issue just read, as the open-issue index keeps it (docs/protocol.md §9). */
export function indexedIssueOf(
  key: IssueKey,
  thread: IssueThread & { readonly meta: IssueMeta },
): IndexedIssue {
  return {
    key,
    title: thread.meta.title,
    url: thread.meta.url,
    labels: thread.labels,
    assignees: thread.assignees,
    createdAt: formatClaimTime(new Date(thread.meta.createdAt)),
    updatedAt: formatClaimTime(new Date(thread.meta.updatedAt)),
  };
}
