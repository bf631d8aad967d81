import type { ResolvedRepoConfig } from '../../config/repo-config.js';
import { installationReads } from '../../github/conditional.js';
import { IssueGoneError, UnverifiableError } from '../../github/errors.js';
import { type IssueMeta, type IssueThread, readThread } from '../../github/thread.js';
import { type IssueKey, issueKeyString, issueRef } from '../../keys.js';
import { IssueLockTimeoutError } from '../../queue/issue-lock.js';
import { ApiError, unverifiable } from '../answers/api-error.js';
import type { ApiDeps } from '../caller/api-deps.js';
import { githubFailure } from '../caller/caller-github.js';
import type { IssueAtHand } from '../caller/issue-view.js';
import { issueNotFound } from '../caller/not-found.js';
import type { InstalledRepo } from '../caller/repo-access.js';

/** An issue the API works on, read inside its lock (a write's) or outside it (a read's). */
export type { IssueAtHand } from '../caller/issue-view.js';

/** Where an API call points: `owner/repo#number` as the caller wrote it. */
export interface IssueTarget {
  readonly owner: string;
  readonly repo: string;
  readonly number: number;
}

/**
 * Runs `fn` on an issue inside the per-issue lock its reconciles run under, across replicas
 * (docs/protocol.md §8 "Serialised"), with its config and whole thread read first (fail
 * closed, §6): GitHub failing is 503, a missing issue or a pull request is the one 404 of §8.
 * Only writes come here; once one is done, what readers shared of the issue is forgotten.
 */
export async function onIssue<T>(
  deps: ApiDeps,
  repo: InstalledRepo,
  number: number,
  fn: (issue: IssueAtHand) => Promise<T>,
): Promise<T> {
  const key = issueKeyOf(repo, number);
  try {
    return await deps.queue.exclusive(key, async (lease) => {
      try {
        return await fn({ ...(await issueAtHand(deps, repo, key)), lease });
      } finally {
        deps.reads.forget(issueKeyString(key));
      }
    });
  } catch (error) {
    if (error instanceof IssueLockTimeoutError) {
      throw unverifiable('the issue is being reconciled and stayed busy', 1);
    }
    throw error;
  }
}

/** Issue `number` of an installed repository. */
export function issueKeyOf(repo: InstalledRepo, number: number): IssueKey {
  return { installationId: repo.installationId, owner: repo.owner, repo: repo.repo, number };
}

/**
 * The issue with its config and whole thread, read without its lock: what a reader sees
 * (docs/protocol.md §8 "Readers"), and what a write reads once it holds the lock.
 */
export async function issueAtHand(
  deps: ApiDeps,
  repo: InstalledRepo,
  key: IssueKey,
): Promise<IssueAtHand> {
  const config = await configOf(deps, repo);
  const thread = await readIssue(deps, repo, key);
  return { key, repo, config, thread };
}

/** The issue's thread; 404 for an issue that is gone or a pull request, 503 when unverifiable. */
export async function readIssue(
  deps: ApiDeps,
  repo: InstalledRepo,
  key: IssueKey,
): Promise<IssueThread & { readonly meta: IssueMeta }> {
  try {
    const reads = installationReads(deps.store, key.installationId);
    const thread = await readThread(repo.octokit, key, reads);
    // docs/protocol.md §2: claims live on issues only.
    if (thread.isPullRequest) throw issueNotFound();
    return thread;
  } catch (error) {
    if (error instanceof IssueGoneError) throw issueNotFound();
    if (error instanceof UnverifiableError) {
      deps.log.warn(
        { issue: issueRef(key), status: error.status },
        'claims API: thread unverifiable',
      );
      throw githubFailure(
        error.cause ?? error,
        `could not read the whole thread: ${error.message}`,
        deps.now().getTime(),
      );
    }
    throw error;
  }
}

/**
 * The repository's config as a decision needs it: 409 CONFIG_INVALID naming the problem when
 * claims.yml is invalid (nothing is written there, docs/protocol.md §6), 503 when unreadable.
 */
export async function configOf(deps: ApiDeps, repo: InstalledRepo): Promise<ResolvedRepoConfig> {
  const result = await deps.config(repo.octokit, repo);
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      return result.config;
    case 'invalid':
      throw new ApiError(
        409,
        'CONFIG_INVALID',
        `${repo.owner}/${repo.repo}/.github/claims.yml is invalid, so the app writes nothing there: ${result.error}; a maintainer must fix it`,
      );
    case 'unreadable':
      throw unverifiable('the repository config could not be read');
  }
}
