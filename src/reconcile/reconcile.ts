import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import { recordForBoard } from '../board/record-for-board.js';
import { type Action, type DecideConfig, decide, type Plan } from '../claims/decide.js';
import { executePlan, type KnownLabels } from '../github/execute.js';
import {
  IssueGoneError,
  type IssueThread,
  readThread,
  UnverifiableError,
} from '../github/thread.js';
import type { ReconcileRequest } from '../queue/queue.js';
import { type IssueKey, issueKeyString, type Store } from '../store/store.js';

/** A repository's config as the reconcile needs it: usable, or invalid with the field named. */
export type ConfigLookup =
  | { readonly ok: true; readonly config: DecideConfig }
  | { readonly ok: false; readonly error: string };

/** What a reconcile needs from the rest of the app. */
export interface ReconcileDeps {
  octokitFor(installationId: number): Promise<ProbotOctokit>;
  /** Throws when the config could not be read (the reconcile is retried). */
  configFor(octokit: ProbotOctokit, key: IssueKey): Promise<ConfigLookup>;
  readonly store: Store;
  readonly log: Logger;
  readonly now: () => Date;
  readonly appLogin: string;
  readonly knownLabels: KnownLabels;
  /** Called for each write applied, e.g. to count finalisations. */
  onWrite?(action: Action, key: IssueKey): void;
}

/** How one reconcile ended. */
export type ReconcileResult =
  | { readonly outcome: 'applied'; readonly plan: Plan }
  | { readonly outcome: 'gone' | 'invalid-config' };

/**
 * Makes one issue true (SPEC §4): read the config and the whole thread, decide, apply, and
 * index the next deadline. Reads the thread as the source of truth, so event order does not
 * matter. Throws on anything unverifiable, so the queue retries with backoff (SPEC §6).
 */
export async function reconcileIssue(
  deps: ReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileResult> {
  const { key } = request;
  const log = deps.log.child({ issue: issueKeyString(key), reason: request.reason });
  const octokit = await deps.octokitFor(key.installationId);

  const lookup = await deps.configFor(octokit, key);
  if (!lookup.ok) {
    // SPEC §6: bad repository config means nothing is written on that repository.
    log.warn({ error: lookup.error }, 'repository config is invalid: nothing written');
    return { outcome: 'invalid-config' };
  }

  let thread: IssueThread;
  try {
    thread = await readThread(octokit, key);
  } catch (error) {
    if (error instanceof IssueGoneError) {
      await deps.store.setDeadline(key, null);
      await deps.store.setHolder(key, null);
      await deps.store.setLiveClaimSummary(key, null);
      log.info('issue is gone: dropped from the index');
      return { outcome: 'gone' };
    }
    if (error instanceof UnverifiableError) {
      log.error(
        { err: error.cause ?? error, status: error.status },
        'thread unverifiable: will retry',
      );
    }
    throw error;
  }

  const now = deps.now();
  const plan = decide(
    { ...thread, appLogin: deps.appLogin, hints: request.hints },
    lookup.config,
    now,
  );
  await executePlan(octokit, key, plan, {
    knownLabels: deps.knownLabels,
    onWrite: (action) => {
      if (action.kind === 'finalise') {
        log.info(
          { commentId: action.commentId, reason: action.reason, outcome: action.outcome },
          'claim finalised',
        );
      }
      deps.onWrite?.(action, key);
    },
  });
  await deps.store.setDeadline(key, plan.deadline);
  await deps.store.setHolder(key, plan.holder?.commentId ?? null);
  await recordForBoard(deps.store, key, plan, thread, lookup.config.staleAfterMs, now);
  log.debug({ holder: plan.holder, writes: plan.actions.length }, 'issue reconciled');
  return { outcome: 'applied', plan };
}
