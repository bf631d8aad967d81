import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import { parseClaimMarker } from '../claims/marker.js';
import type { WorkQueue } from '../queue/queue.js';
import type { IssueKey, Store } from '../store/store.js';

/**
 * Checkpoints are set this far before the pass started, so a comment GitHub stamped while
 * the pass ran (or under a small clock skew) is read again next time rather than missed.
 */
export const CHECKPOINT_OVERLAP_MS = 60_000;

/** What a resync needs. */
export interface ResyncDeps {
  readonly store: Store;
  readonly queue: WorkQueue;
  readonly log: Logger;
  readonly now: () => Date;
  /** An octokit authenticated as the app (JWT), to list installations. */
  appOctokit(): Promise<ProbotOctokit>;
  octokitFor(installationId: number): Promise<ProbotOctokit>;
  /** The stale window of a repository; throws when its config cannot be read. */
  staleAfterFor(octokit: ProbotOctokit, key: Omit<IssueKey, 'number'>): Promise<number | null>;
}

/** Resyncs every repository of every installation (at start-up and every resync interval). */
export async function resyncAll(deps: ResyncDeps): Promise<{ repos: number; issues: number }> {
  const app = await deps.appOctokit();
  const installations = await app.paginate(app.rest.apps.listInstallations, { per_page: 100 });
  let repos = 0;
  let issues = 0;
  for (const installation of installations) {
    try {
      const result = await resyncInstallation(deps, installation.id);
      repos += result.repos;
      issues += result.issues;
    } catch (err) {
      deps.log.error({ err, installationId: installation.id }, 'resync of installation failed');
    }
  }
  return { repos, issues };
}

/** Resyncs the given repositories (`owner/name`) of one installation, or all of them. */
export async function resyncInstallation(
  deps: ResyncDeps,
  installationId: number,
  only?: readonly string[],
): Promise<{ repos: number; issues: number }> {
  const octokit = await deps.octokitFor(installationId);
  const names =
    only ??
    (
      await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 })
    ).map((r) => r.full_name);
  let issues = 0;
  for (const fullName of names) {
    const [owner, repo] = fullName.split('/') as [string, string];
    try {
      issues += await resyncRepo(deps, octokit, { installationId, owner, repo });
    } catch (err) {
      deps.log.error({ err, repo: fullName }, 'resync of repository failed: checkpoint kept');
    }
  }
  return { repos: names.length, issues };
}

/**
 * SPEC §4: reads the repository's comments updated since its checkpoint (with none, since one
 * stale window ago: older claims cannot be live) and queues a reconcile of every issue with a
 * marker. The checkpoint moves only after every such issue is queued.
 */
export async function resyncRepo(
  deps: ResyncDeps,
  octokit: ProbotOctokit,
  repo: Omit<IssueKey, 'number'>,
): Promise<number> {
  const startedAt = deps.now();
  const checkpoint = await deps.store.getCheckpoint(repo.installationId, repo.owner, repo.repo);
  const staleAfterMs = await deps.staleAfterFor(octokit, repo);
  if (staleAfterMs === null) {
    deps.log.warn(
      { repo: `${repo.owner}/${repo.repo}` },
      'resync skipped: repository config is invalid',
    );
    return 0;
  }
  const since = checkpoint ?? new Date(startedAt.getTime() - staleAfterMs);
  const numbers = new Set<number>();
  const pages = octokit.paginate.iterator(octokit.rest.issues.listCommentsForRepo, {
    owner: repo.owner,
    repo: repo.repo,
    since: since.toISOString(),
    sort: 'updated',
    direction: 'asc',
    per_page: 100,
  });
  for await (const page of pages) {
    for (const comment of page.data) {
      if (!parseClaimMarker(comment.body ?? '')) continue;
      const number = Number(/\/issues\/(\d+)$/.exec(comment.issue_url)?.[1]);
      if (Number.isInteger(number) && number > 0) numbers.add(number);
    }
  }
  for (const number of numbers) {
    await deps.queue.enqueue({ key: { ...repo, number }, hints: [], reason: 'resync' });
  }
  await deps.store.setCheckpoint(
    repo.installationId,
    repo.owner,
    repo.repo,
    new Date(startedAt.getTime() - CHECKPOINT_OVERLAP_MS),
  );
  return numbers.size;
}

/** Runs resyncAll now and then every interval until stopped; failures wait for the next one. */
export function startResync(deps: ResyncDeps & { intervalMs: number }): {
  stop(): void;
  first: Promise<void>;
} {
  const run = () =>
    resyncAll(deps)
      .then((r) => deps.log.info(r, 'resync queued issues with markers'))
      .catch((err: unknown) => deps.log.error({ err }, 'resync failed: will try next interval'));
  const first = run();
  const timer = setInterval(run, deps.intervalMs);
  return { stop: () => clearInterval(timer), first };
}
