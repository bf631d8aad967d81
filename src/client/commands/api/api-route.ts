import type { IssueRef } from '../../core/issue-ref.js';

/** The API route of an issue's claim: `/repos/{o}/{r}/issues/{n}/claim` (docs/protocol.md §8). */
export function claimRoute(ref: IssueRef, suffix = ''): string {
  return `/repos/${encodeURIComponent(ref.owner)}/${encodeURIComponent(ref.repo)}/issues/${ref.number}/claim${suffix}`;
}
