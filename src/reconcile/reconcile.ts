import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { DecideConfig } from '../claims/decide-config.js';
import { hasName, sameName } from '../claims/names.js';
import type { PeopleFacts } from '../claims/people-facts.js';
import type { Action, Plan } from '../claims/plan.js';
import type { ClaimEvent } from '../events/claim-event.js';
import { keepClaimEvents } from '../events/keep-claim-events.js';
import { installationReads } from '../github/conditional.js';
import { IssueGoneError, UnverifiableError } from '../github/errors.js';
import { executePlan, type KnownLabels } from '../github/execute.js';
import { type IssueMeta, type IssueThread, type PlusOnes, readThread } from '../github/thread.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import { pathHoldersFor } from '../paths/path-holders-for.js';
import { decideIssue } from '../people/decide-issue.js';
import { assignsCappedPerson, underCapLocks } from '../people-facts/cap-lock.js';
import { peopleFactsFor } from '../people-facts/people-facts-for.js';
import type { ReconcileRequest } from '../queue/queue.js';
import { personClaimsElsewhere } from '../read-model/held-elsewhere.js';
import { recordGone } from '../read-model/record-gone.js';
import { recordReconciled } from '../read-model/record-reconciled.js';
import type { Store } from '../store/store.js';

/**
 * How long a first 404 or 410 on an issue waits for the second that confirms it: longer than
 * the queue's retries of one request, and than a sweep interval, so the confirming reconcile
 * finds it.
 */
const GONE_MEMORY_MS = 24 * 3_600_000;

/** A repository's config as the reconcile needs it: usable, or invalid with the field named. */
type ConfigLookup =
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
  /** Asks for a reconcile of an issue whose claim overlaps paths (docs/protocol.md §10). */
  requestReconcile?(key: IssueKey): Promise<void>;
  /** Asks for a re-check of a pull request the holder's paths flagged (docs/protocol.md §11). */
  requestPullCheck?(key: IssueKey): Promise<void>;
  /** Applies the plan (default executePlan); observe mode passes one that only logs. */
  readonly executePlan?: typeof executePlan;
  /** Observe mode: nothing is sent, so nothing is remembered as assigned by the app. */
  readonly observing?: boolean;
  /**
   * Publishes the claim events of a plan once it is applied, before the new holder is
   * recorded (docs/protocol.md §13). A throw fails the reconcile, so the queue retries it,
   * and the retry tells what this attempt wrote (`src/events/keep-claim-events.ts`). Not
   * called while `observing`: nothing was written.
   */
  publishEvents?(events: readonly ClaimEvent[]): Promise<void>;
}

/** How one reconcile ended. */
export type ReconcileResult =
  | { readonly outcome: 'applied'; readonly plan: Plan }
  | { readonly outcome: 'gone' | 'invalid-config' };

/**
 * Makes one issue true (docs/protocol.md §4): read the config and the whole thread, decide, apply, and
 * index the next deadline. Reads the thread as the source of truth, so event order does not
 * matter. Throws on anything unverifiable, so the queue retries with backoff (docs/protocol.md §6).
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
    // docs/protocol.md §6: bad repository config means nothing is written on that repository.
    log.warn({ error: lookup.error }, 'repository config is invalid: nothing written');
    return { outcome: 'invalid-config' };
  }

  const reads = installationReads(deps.store, key.installationId);
  let thread: IssueThread & { readonly meta: IssueMeta; readonly plusOnes: PlusOnes };
  try {
    thread = await readThread(octokit, key, reads);
  } catch (error) {
    if (error instanceof IssueGoneError) {
      // docs/protocol.md §6: one 404 is not proof (GitHub answers a transient one now and
      // then), and taking it for a deletion would drop a live claim for good. Gone only when
      // the next reconcile hears it too; until then fail closed, so the queue retries.
      if (await deps.store.noteIssueGone(key, GONE_MEMORY_MS)) {
        await recordGone(deps, key);
        log.info({ status: error.status }, 'issue is gone: dropped from the index');
        return { outcome: 'gone' };
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

  // The issue answered: a 404 noted before was transient.
  await deps.store.clearIssueGone(key);

  const appAssignees = await deps.store.appAssignees(key);
  // Observe mode writes nothing, so it publishes no events of changes it did not make.
  const publishEvents = deps.observing ? undefined : deps.publishEvents;
  const previousHolder = publishEvents ? await deps.store.holderOf(key) : null;

  const now = deps.now();
  const pathDeps = {
    ...deps,
    readThread: (other: IssueKey) => readThread(octokit, other, reads),
    log,
  };
  const paths = await pathHoldersFor(pathDeps, key, thread, lookup.config, now);
  const facts = {
    ...thread,
    appLogin: deps.appLogin,
    hints: request.hints,
    appAssignees,
    pathHolders: paths.holders,
  };
  // docs/protocol.md §16: with people's claims off, nothing more is read and decideIssue is
  // decide exactly.
  const readDeps = { octokit, reads, store: deps.store, appLogin: deps.appLogin, now };
  const people = await peopleFactsFor(readDeps, key, facts, lookup.config);
  const decided = (heldElsewhere?: PeopleFacts['heldElsewhere']) =>
    decideIssue(
      {
        ...facts,
        ...(people ? { people: heldElsewhere ? { ...people, heldElsewhere } : people } : {}),
      },
      lookup.config,
      now,
    );
  const apply = async (plan: Plan): Promise<ReconcileResult> => {
    // Remembered before the assignment is sent: a reconcile that dies after it still knows
    // whom it assigned. One that GitHub refused is dropped below, on the next reconcile.
    const remember = !deps.observing;
    const planned = rememberedAssignees(appAssignees, thread.assignees, plan, false);
    if (remember && !sameLogins(planned, appAssignees)) {
      await deps.store.setAppAssignees(key, planned);
    }
    const kept = publishEvents
      ? await keepClaimEvents(deps.store, {
          key,
          comments: thread.comments,
          plan,
          previousHolder,
          now,
        })
      : undefined;
    await (deps.executePlan ?? executePlan)(octokit, key, plan, {
      knownLabels: deps.knownLabels,
      onWrite: (action) => {
        if (action.kind === 'finalise') {
          log.info(
            // `reason` is the child's (what started the reconcile): one key, one meaning per line.
            {
              commentId: action.commentId,
              finalisedBecause: action.reason,
              outcome: action.outcome,
            },
            'claim finalised',
          );
        }
        deps.onWrite?.(action, key);
      },
    });
    if (publishEvents && kept) {
      await publishEvents(kept.events);
      await kept.published();
    }
    const applied = rememberedAssignees(appAssignees, thread.assignees, plan, true);
    if (remember && !sameLogins(applied, planned)) await deps.store.setAppAssignees(key, applied);
    const { staleAfterMs } = lookup.config;
    const peopleStaleAfterMs = lookup.config.people?.staleAfterMs;
    await recordReconciled(pathDeps, key, {
      ...{ plan, thread, paths, staleAfterMs, now },
      ...(peopleStaleAfterMs ? { peopleStaleAfterMs } : {}),
    });
    log.debug({ holder: plan.holder, writes: plan.actions.length }, 'issue reconciled');
    return { outcome: 'applied', plan };
  };
  const plan = decided();
  if (!people || !assignsCappedPerson(plan, lookup.config)) return apply(plan);
  // docs/protocol.md §16 `people.maxClaims`: counted again, decided and recorded under the
  // locks of the logins the decision weighs, so no other issue's reconcile assigns them
  // meanwhile on the same count.
  const logins = [...people.heldElsewhere.keys()];
  return underCapLocks(deps.store, key.installationId, logins, async () =>
    apply(decided(await personClaimsElsewhere(deps.store, key, logins, now))),
  );
}

/**
 * The logins the app assigned for agents' claims, after the plan's actions: those remembered that are still
 * assigned (a person may have unassigned one), plus those the plan assigns, less those it
 * unassigns once `applied`. GitHub logins are case-insensitive: one entry per login.
 */
function rememberedAssignees(
  remembered: readonly string[],
  assignees: readonly string[],
  plan: Plan,
  applied: boolean,
): string[] {
  const next = new Map<string, string>();
  for (const login of remembered) {
    if (hasName(assignees, login)) next.set(login.toLowerCase(), login);
  }
  // Only the agent holder's assignment is a claim's: a person the app assigns (docs/protocol.md
  // §16, `/claim` or the waitlist) holds a person claim, which the timeline tells.
  const holder = plan.holder?.kind === 'agent' ? plan.holder.author : null;
  for (const action of plan.actions) {
    if (action.kind === 'assign' && holder !== null && sameName(action.login, holder)) {
      next.set(action.login.toLowerCase(), action.login);
    }
    if (action.kind === 'unassign' && applied) next.delete(action.login.toLowerCase());
  }
  return [...next.values()];
}

function sameLogins(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((login, i) => login === b[i]);
}
