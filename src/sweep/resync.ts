import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import { conditionalPages, tokenScope } from '../github/conditional.js';
import { isHostedLogin } from '../hosted/hosted-logins.js';
import type { IssueKey } from '../keys.js';
import type { WorkQueue } from '../queue/queue.js';
import { indexOpenIssues } from '../read-model/index-events.js';
import type { Store } from '../store/store.js';
import { markedIssueNumber } from './marked-issue-number.js';
import { resyncedNumbers, unexplainedAssignees } from './people-to-resync.js';

/**
 * Checkpoints are set this far before the pass started, so a comment GitHub stamped while
 * the pass ran (or under a small clock skew) is read again next time rather than missed.
 */
const CHECKPOINT_OVERLAP_MS = 60_000;

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
  /**
   * Whether the repository has people's claims on (docs/protocol.md §16), and which hosted
   * agents it lists (§18), asked only when the pass found people's work to look at (a
   * command, an unexplained assignee). Absent: neither is resynced.
   */
  peopleOn?(octokit: ProbotOctokit, key: Omit<IssueKey, 'number'>): Promise<ResyncedWork>;
  /** The app's slug, for commands written `@slug claim`. */
  readonly appSlug?: string;
}

/** What a repository's config says the resync looks for besides markers. */
interface ResyncedWork {
  /** People's claims are on: commands and every unexplained assignee (docs/protocol.md §16). */
  readonly people: boolean;
  /** The hosted agents listed: with people's claims off, their assignments alone (§18). */
  readonly hosted: readonly string[];
}

/** Resyncs every repository of every installation (at start-up and every resync interval). */
async function resyncAll(deps: ResyncDeps): Promise<{ repos: number; issues: number }> {
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
  const names = only ?? (await installationRepos(deps, octokit, installationId));
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
 * docs/protocol.md §4: reads the repository's comments updated since its checkpoint (with none, since one
 * stale window ago: older claims cannot be live) and queues a reconcile of every issue with a
 * marker. With people's claims on (§16), also every issue with a person's command among those
 * comments, and every open issue with an assignee no known claim accounts for (from the open
 * issues the pass lists anyway). The checkpoint moves only after every such issue is queued.
 */
async function resyncRepo(
  deps: ResyncDeps,
  octokit: ProbotOctokit,
  repo: Omit<IssueKey, 'number'>,
): Promise<number> {
  const startedAt = deps.now();
  const checkpoint = await deps.store.getCheckpoint(repo);
  // The stale window is needed only to start a repository without a checkpoint: with one,
  // the config is not read here (each reconcile reads it, and writes nothing when it is
  // invalid), so a quiet repository costs its one conditional list (docs/api-budget.md).
  let since = checkpoint;
  if (since === null) {
    const staleAfterMs = await deps.staleAfterFor(octokit, repo);
    if (staleAfterMs === null) {
      deps.log.warn(
        { repo: `${repo.owner}/${repo.repo}` },
        'resync skipped: repository config is invalid',
      );
      return 0;
    }
    since = new Date(startedAt.getTime() - staleAfterMs);
  }
  const numbers = new Set<number>();
  const commanded = new Set<number>();
  let listed = 0;
  // Conditional (docs/api-budget.md): a page GitHub answers 304 costs no rate limit. Its items
  // are queued as well: they were kept, but maybe not queued, by the read before.
  const pages = conditionalPages(
    octokit,
    deps.store,
    tokenScope(repo.installationId),
    'GET /repos/{owner}/{repo}/issues/comments',
    {
      owner: repo.owner,
      repo: repo.repo,
      since: since.toISOString(),
      sort: 'updated',
      direction: 'asc',
      per_page: 100,
    },
    deps.peopleOn ? resyncedNumbers(deps.appSlug ?? 'claim-warden') : markedIssues,
  );
  for await (const page of pages) {
    listed += page.items.length;
    for (const number of page.items) {
      if (number > 0) numbers.add(number);
      else if (number < 0) commanded.add(-number);
    }
  }
  for (const number of numbers) {
    await deps.queue.enqueue({ key: { ...repo, number }, hints: [], reason: 'resync' });
  }
  // docs/protocol.md §9: the open issues too, for the work queue's index; conditional as
  // well, so an unchanged listing costs no rate limit.
  await indexOpenIssues(deps.store, octokit, repo, startedAt, tokenScope(repo.installationId));
  const people = await peopleToResync(deps, octokit, repo, checkpoint, commanded, numbers);
  for (const number of people) {
    await deps.queue.enqueue({ key: { ...repo, number }, hints: [], reason: 'resync' });
  }
  // Nothing since the checkpoint: it stays, so the next resync asks for the same URL and
  // GitHub can answer 304. Else it moves to shortly before this pass started.
  const next =
    listed > 0 ? new Date(startedAt.getTime() - CHECKPOINT_OVERLAP_MS) : (checkpoint ?? since);
  await deps.store.setCheckpoint(repo, next);
  return numbers.size + people.length;
}

/**
 * docs/protocol.md §16: the issues with people's work the app may have missed, not queued
 * already for a marker: those with a command since the checkpoint, and the open ones whose
 * assignees no known claim accounts for. The config is read only when there are some (a
 * quiet repository costs nothing more). With people's claims off, only those a listed hosted
 * agent is assigned to (§18), and none with hosted agents off too.
 */
async function peopleToResync(
  deps: ResyncDeps,
  octokit: ProbotOctokit,
  repo: Omit<IssueKey, 'number'>,
  checkpoint: Date | null,
  commanded: ReadonlySet<number>,
  queued: ReadonlySet<number>,
): Promise<number[]> {
  if (!deps.peopleOn) return [];
  const assigned = await unexplainedAssignees(deps.store, repo, checkpoint);
  const found = [...new Set([...commanded, ...assigned])].filter((n) => !queued.has(n));
  if (found.length === 0) return [];
  const work = await deps.peopleOn(octokit, repo);
  if (work.people) return found.sort((a, b) => a - b);
  if (work.hosted.length === 0) return [];
  const hosted = (login: string) => isHostedLogin(login, work.hosted);
  const agents = await unexplainedAssignees(deps.store, repo, checkpoint, hosted);
  return agents.filter((n) => !queued.has(n));
}

/** The repositories an installation reaches (`owner/name`), read conditionally. */
async function installationRepos(
  deps: ResyncDeps,
  octokit: ProbotOctokit,
  installationId: number,
): Promise<string[]> {
  const names: string[] = [];
  const pages = conditionalPages(
    octokit,
    deps.store,
    tokenScope(installationId),
    'GET /installation/repositories',
    { per_page: 100 },
    (data) =>
      ((data as { repositories?: Array<{ full_name: string }> }).repositories ?? []).map(
        (r) => r.full_name,
      ),
  );
  for await (const page of pages) names.push(...page.items);
  return names;
}

/** Per comment of a page, its issue number when it carries a marker, else 0. */
function markedIssues(data: unknown): number[] {
  return (data as Array<{ body?: string | null; issue_url: string }>).map(
    (comment) => markedIssueNumber(comment) ?? 0,
  );
}

/** The lease that lets one replica of a cluster run the periodic resync per interval. */
const RESYNC_LEASE = 'resync-lease';

/**
 * A lease that one running replica of a cluster holds and renews; any other takes it over
 * within a sixth of its TTL when the holder stops. A replica that finds it held at start-up
 * joins a cluster that was running (a rolling deploy, a scale-up).
 */
const CLUSTER_PRESENCE = 'cluster-presence';

/** How long the presence lease outlives a replica that died without releasing it. */
const PRESENCE_TTL_MS = 30_000;

/** The lease TTL for a resync interval: it expires shortly before the next interval. */
function leaseFor(intervalMs: number): number {
  return Math.max(1, Math.floor(intervalMs * 0.9));
}

/**
 * The periodic resync of a cluster: resyncs every repository when this replica takes the
 * interval's lease, and resolves null when another replica has it (it resyncs instead), so N
 * replicas list every repository once per interval, not N times.
 */
export async function resyncIfDue(
  deps: ResyncDeps,
  intervalMs: number,
): Promise<{ repos: number; issues: number } | null> {
  // Not released on purpose: it expires shortly before the next interval.
  const lease = await deps.store.acquireLock(RESYNC_LEASE, leaseFor(intervalMs));
  if (lease === null) return null;
  return resyncAll(deps);
}

/**
 * docs/protocol.md §4: resyncs at start-up and then every interval, once per cluster. Failures wait for
 * the next interval.
 *
 * The start-up resync finds claims posted while the app was down; with many replicas "the
 * app" is the cluster. So a replica resyncs at start-up only when no other replica holds the
 * presence lease: the first of a cluster starting together, or one starting after the whole
 * cluster was down. A replica joining a running cluster skips it, as the running replicas
 * took the webhooks meanwhile. A cluster that crashed entirely and is back within
 * PRESENCE_TTL_MS skips it too; the periodic resync then finds those claims.
 */
export function startResync(deps: ResyncDeps & { intervalMs: number; presenceTtlMs?: number }): {
  stop(): Promise<void>;
  first: Promise<void>;
} {
  const presenceTtlMs = deps.presenceTtlMs ?? PRESENCE_TTL_MS;
  let presence: string | null = null;
  let running = false;

  const report = (why: string, pass: Promise<{ repos: number; issues: number } | null>) =>
    pass.then(
      (result) => {
        if (result) deps.log.info({ ...result, why }, 'resync queued issues with markers');
      },
      (err: unknown) => deps.log.error({ err, why }, 'resync failed: will try next interval'),
    );

  /** Takes the presence lease, or renews it when this replica holds it already. */
  const keepPresence = async () => {
    try {
      if (presence !== null) {
        if (await deps.store.extendLock(CLUSTER_PRESENCE, presence, presenceTtlMs)) return;
        presence = null;
      }
      presence = await deps.store.acquireLock(CLUSTER_PRESENCE, presenceTtlMs);
    } catch (err) {
      deps.log.warn({ err }, 'cluster presence lease not renewed');
    }
  };

  const startUp = async (): Promise<{ repos: number; issues: number } | null> => {
    let joined = false;
    try {
      presence = await deps.store.acquireLock(CLUSTER_PRESENCE, presenceTtlMs);
      joined = presence === null;
    } catch {
      // The store is down: resync as if alone; the pass fails and is logged.
    }
    if (joined) {
      deps.log.info('start-up resync skipped: joined a running cluster');
      return null;
    }
    // Opens the cluster's first interval, so the other replicas' timers do not resync again
    // right away. Held already (a recent periodic resync): resync anyway, the cluster was down.
    await deps.store.acquireLock(RESYNC_LEASE, leaseFor(deps.intervalMs)).catch(() => null);
    return resyncAll(deps);
  };

  const exclusive = (
    why: string,
    pass: () => Promise<{ repos: number; issues: number } | null>,
  ) => {
    if (running) return Promise.resolve();
    running = true;
    return report(why, pass()).finally(() => {
      running = false;
    });
  };

  const first = exclusive('start-up', startUp);
  const presenceTimer = setInterval(() => void keepPresence(), Math.max(1, presenceTtlMs / 6));
  const timer = setInterval(
    () => void exclusive('periodic', () => resyncIfDue(deps, deps.intervalMs)),
    deps.intervalMs,
  );
  return {
    first,
    async stop() {
      clearInterval(timer);
      clearInterval(presenceTimer);
      // Let another replica take the presence over at once; a failure just lets it expire.
      const token = presence;
      presence = null;
      if (token !== null) await deps.store.releaseLock(CLUSTER_PRESENCE, token).catch(() => false);
    },
  };
}
