import type { ProbotOctokit } from 'probot';
import type { Role } from '../claims/people-facts.js';
import type { IssueKey } from '../keys.js';
import type { ReadCache } from './conditional.js';
import { statusOf, UnverifiableError } from './errors.js';
import { ACCOUNT_ANSWER_TTL_MS, keptAnswer } from './kept-answer.js';

const BUILT_IN: readonly Role[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];

/**
 * The role of `login` on the issue's repository (`GET /repos/{o}/{r}/collaborators/{u}/permission`,
 * `role_name`: the older `permission` reports maintain as write and triage as read), kept a
 * few minutes per installation ({@link ACCOUNT_ANSWER_TTL_MS}). An organisation's custom role
 * counts as the base permission GitHub reports for it; an account GitHub cannot report on
 * (404) has none. Any other failure throws UnverifiableError: a role that could not be read
 * is never guessed (docs/protocol.md §6).
 */
export function readRole(
  octokit: ProbotOctokit,
  cache: ReadCache,
  key: IssueKey,
  login: string,
): Promise<Role> {
  const name = `role v1 ${key.owner}/${key.repo} ${login}`.toLowerCase();
  return keptAnswer(cache, name, ACCOUNT_ANSWER_TTL_MS, async () => {
    try {
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
        owner: key.owner,
        repo: key.repo,
        username: login,
      });
      return roleOf(data.role_name, data.permission);
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) return 'none';
      throw new UnverifiableError(`could not read the role of @${login}`, key, status, {
        cause: error,
      });
    }
  });
}

function roleOf(roleName: string, permission: string): Role {
  const named = BUILT_IN.find((role) => role === roleName);
  if (named) return named;
  return BUILT_IN.find((role) => role === permission) ?? 'read';
}
