import type { ProbotOctokit } from 'probot';
import type { RepoKey } from '../keys.js';
import { statusOf } from './errors.js';

/** What one check run says: GitHub's conclusion and its Markdown output (docs/protocol.md §11). */
export interface CheckOutcome {
  readonly conclusion: 'success' | 'failure' | 'neutral';
  readonly title: string;
  readonly summary: string;
}

/** A plan's action on a commit rather than an issue: the app's check run `name` says `outcome`. */
export interface CheckRunAction {
  readonly kind: 'check-run';
  readonly name: string;
  readonly sha: string;
  readonly outcome: CheckOutcome;
}

/**
 * What a check-run action did: nothing (the check already said so), which write it sent, or
 * nothing because GitHub knows no such commit (`commit-gone`).
 */
export type CheckRunWrite = 'unchanged' | 'created' | 'updated' | 'commit-gone';

/**
 * Makes the app's check run `name` on commit `sha` say `outcome`: created once per commit,
 * then updated (docs/protocol.md §11). The commit's runs are listed first, so a retry, a
 * redelivery or another replica finds the run instead of adding a second one, and a run that
 * already says the same is not written again (docs/protocol.md §5). Runs of other apps with
 * the same name are left alone. A commit GitHub does not know (422 "No commit found": the
 * head was force-pushed away before its event was handled) is `commit-gone`, not a failure:
 * asking again cannot make it exist, and the new head's own event is checked in its turn.
 * Throws on any other GitHub failure, so the caller retries.
 */
export async function checkRun(
  octokit: ProbotOctokit,
  repo: RepoKey,
  action: CheckRunAction,
  appLogin: string,
): Promise<CheckRunWrite> {
  try {
    return await setCheckRun(octokit, repo, action, appLogin);
  } catch (error) {
    if (statusOf(error) === 422 && /no commit found/i.test(String((error as Error).message))) {
      return 'commit-gone';
    }
    throw error;
  }
}

async function setCheckRun(
  octokit: ProbotOctokit,
  repo: RepoKey,
  { name, sha, outcome }: CheckRunAction,
  appLogin: string,
): Promise<CheckRunWrite> {
  const where = { owner: repo.owner, repo: repo.repo };
  const { data } = await octokit.rest.checks.listForRef({
    ...where,
    ref: sha,
    check_name: name,
    filter: 'latest',
    per_page: 100,
  });
  const slug = appLogin.replace(/\[bot\]$/, '').toLowerCase();
  const mine = data.check_runs.find((run) => run.app?.slug?.toLowerCase() === slug);
  const output = { title: outcome.title, summary: outcome.summary };
  if (mine === undefined) {
    await octokit.rest.checks.create({
      ...where,
      name,
      head_sha: sha,
      status: 'completed',
      conclusion: outcome.conclusion,
      output,
    });
    return 'created';
  }
  if (
    mine.status === 'completed' &&
    mine.conclusion === outcome.conclusion &&
    mine.output.title === outcome.title &&
    mine.output.summary === outcome.summary
  ) {
    return 'unchanged';
  }
  await octokit.rest.checks.update({
    ...where,
    check_run_id: mine.id,
    status: 'completed',
    conclusion: outcome.conclusion,
    output,
  });
  return 'updated';
}
