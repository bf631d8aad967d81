import type { ProbotOctokit } from 'probot';
import { markedIssueNumber } from '../sweep/marked-issue-number.js';

/**
 * The issues a scheduled run reconciles (docs/protocol.md §15): every issue with a marker
 * comment updated within one stale window (older markers cannot be live, but an issue whose
 * claim went stale since still needs it finalised, so:) plus every open issue holding a
 * status label. Reads fail the run (fail closed): a partial list would leave claims
 * unenforced while the step reported success.
 */
export async function sweepRepository(
  octokit: ProbotOctokit,
  repo: { owner: string; repo: string },
  options: { staleAfterMs: number; labels: readonly string[]; now: Date },
): Promise<number[]> {
  const numbers = new Set<number>();
  const since = new Date(options.now.getTime() - options.staleAfterMs).toISOString();
  const comments = octokit.paginate.iterator(octokit.rest.issues.listCommentsForRepo, {
    ...repo,
    since,
    per_page: 100,
  });
  for await (const page of comments) {
    for (const comment of page.data) {
      const number = markedIssueNumber(comment);
      if (number !== null) numbers.add(number);
    }
  }
  // `labels` matches issues holding all of them, so one listing per label.
  for (const label of options.labels) {
    const issues = octokit.paginate.iterator(octokit.rest.issues.listForRepo, {
      ...repo,
      state: 'open',
      labels: label,
      per_page: 100,
    });
    for await (const page of issues) {
      for (const issue of page.data) {
        if (!issue.pull_request) numbers.add(issue.number);
      }
    }
  }
  return [...numbers].sort((a, b) => a - b);
}
