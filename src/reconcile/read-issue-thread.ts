import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { ReadCache } from '../github/conditional.js';
import { IssueGoneError, UnverifiableError } from '../github/errors.js';
import { type IssueMeta, type IssueThread, type PlusOnes, readThread } from '../github/thread.js';
import type { GuardIndexDeps } from '../guard/index-for-guard.js';
import type { IssueKey } from '../keys.js';
import { recordGone } from '../read-model/record-gone.js';

/**
 * How long a first 404 or 410 on an issue waits for the second that confirms it: longer than
 * the queue's retries of one request, and than a sweep interval, so the confirming reconcile
 * finds it.
 */
const GONE_MEMORY_MS = 24 * 3_600_000;

/** The whole thread a reconcile decides from. */
export type ReconcileThread = IssueThread & {
  readonly meta: IssueMeta;
  readonly plusOnes: PlusOnes;
};

/**
 * The issue's whole thread, or `gone` once GitHub has answered 404 or 410 twice (the issue
 * then leaves the index). Throws on anything unverifiable, so the queue retries.
 */
export async function readIssueThread(
  deps: GuardIndexDeps & { readonly log: Logger },
  octokit: ProbotOctokit,
  key: IssueKey,
  reads: ReadCache,
): Promise<ReconcileThread | 'gone'> {
  const { store, log } = deps;
  try {
    const thread = await readThread(octokit, key, reads);
    // The issue answered: a 404 noted before was transient.
    await store.clearIssueGone(key);
    return thread;
  } catch (error) {
    if (error instanceof IssueGoneError) {
      // docs/protocol.md §6: one 404 is not proof (GitHub answers a transient one now and
      // then), and taking it for a deletion would drop a live claim for good. Gone only when
      // the next reconcile hears it too; until then fail closed, so the queue retries.
      if (await store.noteIssueGone(key, GONE_MEMORY_MS)) {
        await recordGone(deps, key);
        log.info({ status: error.status }, 'issue is gone: dropped from the index');
        return 'gone';
      }
      log.warn({ status: error.status }, 'issue answered gone once: will retry');
      throw new UnverifiableError('GitHub answered the issue as gone once', key, error.status, {
        cause: error,
      });
    }
    if (error instanceof UnverifiableError) {
      log.error(
        { err: error.cause ?? error, status: error.status },
        'thread unverifiable: will retry',
      );
    }
    throw error;
  }
}
