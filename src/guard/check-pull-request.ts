import type { ProbotOctokit } from 'probot';
import { pathCovers } from '../claims/paths.js';
import type { PullHead } from '../claims/types.js';
import { configForReconcile } from '../config/config-for-reconcile.js';
import type { ResolvedRepoConfig } from '../config/repo-config.js';
import type { Lease } from '../fence/lease.js';
import type { CheckRunWrite } from '../github/check-run.js';
import { installationReads } from '../github/conditional.js';
import { statusOf } from '../github/errors.js';
import { executePlan } from '../github/execute.js';
import { rolloutOf } from '../github/rollout-of.js';
import { type IssueKey, issueKeyString, repoOf } from '../keys.js';
import { flagger } from './flagger.js';
import type { GuardDeps } from './guard-deps.js';
import { isSameRepository } from './guard-event.js';
import { PATHS_CHECK_NAME, pullCheck } from './pull-check.js';
import { readPullFiles } from './read-pull-files.js';
import { verifiedHolders } from './verified-holders.js';

/** What checking a pull request came to, for logs and tests. */
type PullCheckResult =
  | { readonly outcome: 'skipped'; readonly why: string }
  | { readonly outcome: 'checked'; readonly conclusion: string; readonly write: CheckRunWrite }
  | { readonly outcome: 'observed'; readonly conclusion: string };

/**
 * Sets the `claim-warden/paths` check run of a pull request (docs/protocol.md §11), run by the
 * queue under the pull request's own mutual exclusion, so two events on one head never make
 * two runs. `head` comes from the event; a re-check without one reads the pull request (and
 * leaves a closed one alone). Every pull request of an enforced repository gets the run, so a
 * maintainer may make it a required check. A repository whose indexes hold no path claim and
 * no holder of the head branch needs no file read (no file can lie in a held path): its run
 * says `success` for that reason, at the cost of setting it. Under the repository's rollout
 * keys (docs/protocol.md §11): `enabled: false` reads nothing beyond the config and writes
 * nothing; `mode: observe` reads and decides as usual, and the executor logs the check run it
 * would set and sends none. Throws on any GitHub failure, so the queue retries.
 */
export async function checkPullRequest(
  deps: GuardDeps,
  key: IssueKey,
  given: PullHead | undefined,
  lease?: Lease,
): Promise<PullCheckResult> {
  const repo = repoOf(key);
  const octokit = await deps.octokitFor(key.installationId);
  const lookup = configForReconcile(await deps.configOf(octokit, repo));
  // docs/protocol.md §6: bad repository config means nothing is written on the repository.
  if (!lookup.ok) return { outcome: 'skipped', why: 'invalid config' };
  const config: ResolvedRepoConfig = lookup.config;
  if (!config.enabled) return { outcome: 'skipped', why: 'disabled' };
  if (config.pathGuard === 'off') return { outcome: 'skipped', why: 'pathGuard off' };

  let head = given;
  if (head === undefined) {
    const read = await readHead(octokit, key);
    if (read === null) return { outcome: 'skipped', why: 'pull request closed' };
    head = read;
  }
  const pathHolders = await deps.store.pathHolders(key.installationId, key.owner, key.repo);
  const own = head.sameRepo ? await deps.store.branchHolders(repo, head.ref) : [];
  // Without a path holder no changed file can lie in a held path: the files are not read.
  const { files, truncated } =
    pathHolders.length === 0 ? { files: [], truncated: false } : await readPullFiles(octokit, key);
  const candidates = pathHolders
    .filter((h) => files.some((file) => h.paths.some((entry) => pathCovers(entry, file))))
    .map((h) => h.number);
  for (const h of own) candidates.push(h.number);
  const now = deps.now();
  const reads = installationReads(deps.store, key.installationId);
  const holders = await verifiedHolders(
    octokit,
    repo,
    candidates,
    config,
    deps.appLogin,
    now,
    reads,
  );
  const verdict = pullCheck({
    files,
    holders,
    head,
    pathGuard: config.pathGuard,
    truncated,
    unclaimed: pathHolders.length === 0 && own.length === 0,
    now,
  });
  const done = await executePlan(
    octokit,
    key,
    {
      actions: [
        { kind: 'check-run', name: PATHS_CHECK_NAME, sha: head.sha, outcome: verdict.outcome },
      ],
    },
    {
      knownLabels: deps.knownLabels,
      appLogin: deps.appLogin,
      rollout: rolloutOf(config, deps),
      lease,
    },
  );
  // Remembered, in observe mode too (the store only), so that the pull request is checked
  // again (and, observing, decided and logged again) when the claim stops holding.
  for (const by of verdict.flaggedBy) {
    await deps.store.flagPull({ ...repo, number: by.number }, flagger(by.holder), key.number);
  }
  const { conclusion } = verdict.outcome;
  if (done.outcome !== 'sent') return { outcome: 'observed', conclusion };
  const write = done.checkRuns[0] ?? 'unchanged';
  if (write === 'commit-gone') {
    deps.log.info(
      { pull: issueKeyString(key), sha: head.sha },
      'pull request not checked: GitHub knows no such head commit (force-pushed away?); its new head is checked on its own event',
    );
    return { outcome: 'skipped', why: 'head commit gone' };
  }
  const flaggedBy = verdict.flaggedBy.map((h) => h.issue);
  deps.log.info(
    { pull: issueKeyString(key), sha: head.sha, conclusion, write, flaggedBy },
    'pull request checked',
  );
  return { outcome: 'checked', conclusion, write };
}

/** The open pull request's head, or null when it is closed or gone. */
async function readHead(octokit: ProbotOctokit, key: IssueKey): Promise<PullHead | null> {
  try {
    const { data } = await octokit.rest.pulls.get({
      owner: key.owner,
      repo: key.repo,
      pull_number: key.number,
    });
    if (data.state !== 'open') return null;
    const sameRepo = isSameRepository(data.head.repo?.full_name, data.base.repo.full_name);
    return { sha: data.head.sha, ref: data.head.ref, sameRepo };
  } catch (error) {
    if (statusOf(error) === 404 || statusOf(error) === 410) return null;
    throw error;
  }
}
