import type { ProbotOctokit } from 'probot';
import type { BranchWork } from '../claims/branch-work.js';
import { conditionalGet, type ReadCache } from '../github/conditional.js';
import { statusOf, UnverifiableError } from '../github/errors.js';
import { keptAnswer } from '../github/kept-answer.js';
import type { IssueKey } from '../keys.js';

/** How long a repository's default branch is kept before it is read again. */
const DEFAULT_BRANCH_TTL_MS = 3_600_000;

/**
 * Each read is sent once (docs/protocol.md §17: at most one compare per stale claim per
 * sweep): a failure leaves the claim for the next sweep instead of being repeated now.
 */
const ONCE = { once: true } as const;

/** What is kept of a compare: how far ahead the branch is and its head commit. */
interface KeptCompare {
  readonly aheadBy: number;
  readonly head: string | null;
}

/**
 * The work on `branch` that the repository's default branch lacks (docs/protocol.md §17):
 * `GET /repos/{o}/{r}/compare/{default}...{branch}`, conditional (a repeat is a 304), then,
 * when the branch exists, its open pull request (`GET /repos/{o}/{r}/pulls?head=owner:branch`,
 * conditional too). Null when the branch is gone (404) or holds nothing: not ahead and no open
 * pull request. Any other failure throws UnverifiableError: work that could not be read is
 * never guessed absent (§6).
 */
export async function readBranchWork(
  octokit: ProbotOctokit,
  cache: ReadCache,
  key: IssueKey,
  branch: string,
): Promise<BranchWork | null> {
  try {
    const base = await defaultBranch(octokit, cache, key);
    let compare: KeptCompare;
    try {
      compare = (
        await conditionalGet(
          octokit,
          cache,
          'GET /repos/{owner}/{repo}/compare/{basehead}',
          { owner: key.owner, repo: key.repo, basehead: `${base}...${branch}` },
          ({ data }) => keptCompare(data),
          ONCE,
        )
      ).value;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
    const pull = (
      await conditionalGet(
        octokit,
        cache,
        'GET /repos/{owner}/{repo}/pulls',
        { owner: key.owner, repo: key.repo, head: `${key.owner}:${branch}`, state: 'open' },
        ({ data }) => firstPull(data),
        ONCE,
      )
    ).value;
    if (compare.aheadBy === 0 && pull === null) return null;
    return {
      branch,
      aheadBy: compare.aheadBy,
      head: compare.head ?? pull?.head ?? '',
      pull: pull?.number ?? null,
    };
  } catch (error) {
    throw new UnverifiableError(
      `could not read the work on branch ${branch}`,
      key,
      statusOf(error),
      {
        cause: error,
      },
    );
  }
}

function defaultBranch(octokit: ProbotOctokit, cache: ReadCache, key: IssueKey): Promise<string> {
  const name = `default-branch v1 ${key.owner}/${key.repo}`.toLowerCase();
  return keptAnswer(cache, name, DEFAULT_BRANCH_TTL_MS, async () => {
    const { data } = await octokit.rest.repos.get({ owner: key.owner, repo: key.repo });
    return data.default_branch;
  });
}

/**
 * GitHub lists a comparison's commits oldest first, at most 250 without paging, and then the
 * last one listed is the newest of the whole comparison: the branch's head. (With `per_page`
 * it would not be, so the compare is read unpaged.)
 */
function keptCompare(data: unknown): KeptCompare {
  const body = data as { ahead_by?: number; commits?: ReadonlyArray<{ sha?: string }> };
  return { aheadBy: body.ahead_by ?? 0, head: body.commits?.at(-1)?.sha ?? null };
}

function firstPull(data: unknown): { number: number; head: string } | null {
  const pulls = data as ReadonlyArray<{ number: number; head?: { sha?: string } }>;
  const first = pulls[0];
  return first ? { number: first.number, head: first.head?.sha ?? '' } : null;
}
