import { parseClaimMarker } from '../claims/marker.js';

/**
 * The issue a comment of a repository-wide comment listing belongs to (read from its
 * `issue_url`), when the comment carries a claim marker; else null. The resync and the
 * Action's scheduled sweep both find claims this way.
 */
export function markedIssueNumber(comment: {
  readonly body?: string | null;
  readonly issue_url: string;
}): number | null {
  if (!parseClaimMarker(comment.body ?? '')) return null;
  const number = Number(/\/issues\/(\d+)$/.exec(comment.issue_url)?.[1]);
  return Number.isInteger(number) && number > 0 ? number : null;
}
