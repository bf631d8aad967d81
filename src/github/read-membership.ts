import type { ProbotOctokit } from 'probot';
import type { IssueKey } from '../keys.js';
import type { ReadCache } from './conditional.js';
import { statusOf, UnverifiableError } from './errors.js';
import { ACCOUNT_ANSWER_TTL_MS, keptAnswer } from './kept-answer.js';

/**
 * Whether `login` is a member of the organisation that owns the issue's repository
 * (`GET /orgs/{org}/members/{username}`: 204 yes, 404 no; a repository owned by a person has no
 * members), kept a few minutes per installation. Needs the app's `members: read` organisation
 * permission; without it GitHub answers otherwise, and that, like any failure, throws
 * UnverifiableError (docs/protocol.md §6): membership is never guessed.
 */
export function readMembership(
  octokit: ProbotOctokit,
  cache: ReadCache,
  key: IssueKey,
  login: string,
): Promise<boolean> {
  const name = `member v1 ${key.owner} ${login}`.toLowerCase();
  return keptAnswer(cache, name, ACCOUNT_ANSWER_TTL_MS, async () => {
    try {
      const { status } = await octokit.request('GET /orgs/{org}/members/{username}', {
        org: key.owner,
        username: login,
        // A 302 (the app may not see private members) must not be followed to the public list.
        request: { redirect: 'manual' },
      });
      if ((status as number) === 204) return true;
      throw new Error(`GitHub answered ${status}`);
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) return false;
      throw new UnverifiableError(`could not read whether @${login} is a member`, key, status, {
        cause: error,
      });
    }
  });
}
