import type { ProbotOctokit } from 'probot';
import type { IssueKey } from '../keys.js';
import { conditionalGet, type ReadCache } from './conditional.js';
import { isGoneStatus, statusOf, UnverifiableError } from './errors.js';

/**
 * The head branch of pull request `number` of the issue's repository
 * (`GET /repos/{o}/{r}/pulls/{n}`), conditional with the installation's read cache, so a
 * repeat of an unchanged pull request is a 304 (docs/api-budget.md). Null when GitHub no
 * longer has it (404, 410). Any other failure throws UnverifiableError (docs/protocol.md §6).
 */
export async function readPullHead(
  octokit: ProbotOctokit,
  key: IssueKey,
  number: number,
  cache: ReadCache,
): Promise<string | null> {
  try {
    const answer = await conditionalGet(
      octokit,
      cache,
      'GET /repos/{owner}/{repo}/pulls/{pull_number}',
      { owner: key.owner, repo: key.repo, pull_number: number },
      ({ data }) => (data as { head?: { ref?: string } }).head?.ref ?? null,
    );
    return answer.value;
  } catch (error) {
    const status = statusOf(error);
    if (isGoneStatus(status)) return null;
    throw new UnverifiableError(`could not read pull request #${number}`, key, status, {
      cause: error,
    });
  }
}
