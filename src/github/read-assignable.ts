import type { ProbotOctokit } from 'probot';
import type { IssueKey } from '../keys.js';
import type { ReadCache } from './conditional.js';
import { statusOf, UnverifiableError } from './errors.js';
import { ACCOUNT_ANSWER_TTL_MS, keptAnswer } from './kept-answer.js';

/**
 * Whether GitHub can assign `login` to the issue
 * (`GET /repos/{o}/{r}/issues/{n}/assignees/{assignee}`: 204 yes, 404 no), kept a few minutes.
 * GitHub drops an account it cannot assign from an assignment without an error, so a
 * triager's `/claim @login` asks first (docs/protocol.md §16) instead of answering 👍 for an
 * assignment that never happens. Any other failure throws UnverifiableError (§6).
 */
export function readAssignable(
  octokit: ProbotOctokit,
  cache: ReadCache,
  key: IssueKey,
  login: string,
): Promise<boolean> {
  const name = `assignable v1 ${key.owner}/${key.repo}#${key.number} ${login}`.toLowerCase();
  return keptAnswer(cache, name, ACCOUNT_ANSWER_TTL_MS, async () => {
    try {
      await octokit.rest.issues.checkUserCanBeAssignedToIssue({
        owner: key.owner,
        repo: key.repo,
        issue_number: key.number,
        assignee: login,
      });
      return true;
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) return false;
      throw new UnverifiableError(`could not read whether @${login} can be assigned`, key, status, {
        cause: error,
      });
    }
  });
}
