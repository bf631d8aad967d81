import type { ProbotOctokit } from 'probot';
import { type DecideConfig, decide } from '../claims/decide.js';
import { agentHolder } from '../claims/holder-summary.js';
import type { ReadCache } from '../github/conditional.js';
import { IssueGoneError, readThread } from '../github/thread.js';
import type { IssueKey, RepoKey } from '../keys.js';
import type { VerifiedHolder } from './pull-check.js';

/**
 * The holders of the candidate issues (numbers the indexes named), each as its own thread
 * shows it now, whichever comment that is: the indexes are only what the last reconcile saw,
 * and a check that fails a pull request must not rest on partial facts (docs/protocol.md §6,
 * §11). A thread that cannot be read throws,
 * so the check is retried rather than passed or failed on a guess; an issue gone holds
 * nothing. Threads are read one after another: few holders touch one pull request. The reads
 * are conditional (`reads`): a holder verified on each event of a pull request costs no rate
 * limit while its thread is unchanged (docs/api-budget.md).
 */
export async function verifiedHolders(
  octokit: ProbotOctokit,
  repo: RepoKey,
  candidates: readonly number[],
  config: DecideConfig,
  appLogin: string,
  now: Date,
  reads: ReadCache,
): Promise<VerifiedHolder[]> {
  const found: VerifiedHolder[] = [];
  const seen = new Set<number>();
  for (const number of candidates) {
    if (seen.has(number)) continue;
    seen.add(number);
    const key: IssueKey = { ...repo, number };
    let thread: Awaited<ReturnType<typeof readThread>>;
    try {
      thread = await readThread(octokit, key, reads);
    } catch (error) {
      if (error instanceof IssueGoneError) continue;
      throw error;
    }
    const holder = agentHolder(decide({ ...thread, appLogin, hints: [] }, config, now).holder);
    if (holder === null) continue;
    found.push({ issue: `${repo.owner}/${repo.repo}#${number}`, number, holder });
  }
  return found;
}
