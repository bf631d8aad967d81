import type { ProbotOctokit } from 'probot';
import type { IssueKey } from '../keys.js';

/** GitHub lists at most this many files of a pull request, 100 a page. */
const MAX_LISTED_FILES = 3000;

/** The changed files GitHub lists for a pull request, and whether its cap cut the list. */
interface PullFiles {
  readonly files: readonly string[];
  readonly truncated: boolean;
}

/**
 * The pull request's changed files (`GET /repos/{o}/{r}/pulls/{n}/files`, 100 a page), up to
 * GitHub's 3,000 (`truncated` when the cap was reached). A renamed file counts under both names: either may be held. Throws on any
 * GitHub failure: a check on part of the files would pass what it did not see.
 */
export async function readPullFiles(octokit: ProbotOctokit, key: IssueKey): Promise<PullFiles> {
  const files: string[] = [];
  let listed = 0;
  const pages = octokit.paginate.iterator(octokit.rest.pulls.listFiles, {
    owner: key.owner,
    repo: key.repo,
    pull_number: key.number,
    per_page: 100,
  });
  for await (const page of pages) {
    listed += page.data.length;
    for (const file of page.data) {
      files.push(file.filename);
      if (file.previous_filename) files.push(file.previous_filename);
    }
    if (listed >= MAX_LISTED_FILES) break;
  }
  // GitHub stops at its cap without saying so: a full list may hide more.
  return { files, truncated: listed >= MAX_LISTED_FILES };
}
