import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import { type Action, type LabelRole, OWN_COMMENT_KINDS } from '../claims/plan.js';
import type { ThreadComment } from '../claims/types.js';
import type { Lease } from '../fence/lease.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import { type CheckRunAction, type CheckRunWrite, checkRun } from './check-run.js';
import { statusOf } from './errors.js';
import { threadComment } from './thread.js';

/** How the app creates its status labels when a repository has none (docs/protocol.md §4 row 1). */
interface LabelStyle {
  readonly color: string;
  readonly description: string;
}

/** The colour and description of each status label the app creates. */
function labelStyle(label: string, role: LabelRole): LabelStyle {
  if (role === 'needsReview') {
    return { color: 'fbca04', description: 'A stale session left work here; review it first' };
  }
  return role === 'blocked'
    ? { color: 'd93f0b', description: 'The holder of this issue’s claim is blocked' }
    : { color: '1d76db', description: `Held by a live claim; see the claim comment (${label})` };
}

/**
 * Remembers which labels exist on which repository, so adding a label costs one call, not
 * three, after the first time. Losing it costs a GET, never correctness.
 */
export class KnownLabels {
  readonly #known = new Set<string>();
  has(key: IssueKey, label: string): boolean {
    return this.#known.has(KnownLabels.#id(key, label));
  }
  add(key: IssueKey, label: string): void {
    if (this.#known.size > 100_000) this.#known.clear();
    this.#known.add(KnownLabels.#id(key, label));
  }
  static #id(key: IssueKey, label: string): string {
    return `${key.installationId}/${key.owner}/${key.repo}:${label.toLowerCase()}`;
  }
}

/**
 * Which octokit writes what. One octokit writes everything (the app; the client with the
 * user's token); or a session's own comment writes (OWN_COMMENT_KINDS: posting, editing and
 * deleting its claim comment) go out with `own`, the caller's token, so GitHub shows the
 * caller as their author, and every other action (labels, assignees, finalising, notes)
 * with `app`.
 */
type Writers = ProbotOctokit | { readonly own: ProbotOctokit; readonly app: ProbotOctokit };

/** Every write the executor sends: an issue's actions, and the guard's check runs. */
export type WriteAction = Action | CheckRunAction;

/**
 * A repository's rollout keys (docs/protocol.md §15), applied here and nowhere else:
 * `enabled: false` sends nothing; `mode: observe` logs and counts each of the app's writes
 * instead of sending it. A session's own comment writes with its own token (the `own` of
 * {@link Writers}) are the session's, not the app's, so observe mode sends them.
 */
export interface Rollout {
  readonly enabled: boolean;
  readonly mode: 'enforce' | 'observe';
  readonly log: Logger;
  /** Called for each write observe mode decided and did not send (one metric per kind). */
  readonly onObserve?: (action: WriteAction, key: IssueKey) => void;
}

/** What the executor learnt from GitHub while applying a plan. */
export interface Executed {
  /** The comments the plan's `post-claim` actions created, in order, as GitHub made them. */
  readonly posted: readonly ThreadComment[];
  /** The comments the plan's `edit-claim` actions rewrote, in order, as GitHub returned them. */
  readonly edited: readonly ThreadComment[];
  /** What each `check-run` action came to, in order. */
  readonly checkRuns: readonly CheckRunWrite[];
  /** Whether the app's writes were sent, or held back by the rollout keys. */
  readonly outcome: 'sent' | 'observed' | 'disabled';
}

/** The options of one {@link executePlan}. */
interface ExecuteOptions<A extends WriteAction = WriteAction> {
  /** Labels known to exist; without it, each label added is looked up once (the API adds none). */
  readonly knownLabels?: KnownLabels;
  readonly onWrite?: (action: A) => void;
  readonly rollout?: Rollout;
  /** The app's login, whose check runs `check-run` actions find and update. */
  readonly appLogin?: string;
  /**
   * The issue lock's lease (src/fence/lease.ts): checked before each action and given to each
   * request, so nothing is sent once the lock may be another replica's.
   */
  readonly lease?: Lease | undefined;
}

const OWN = new Set<WriteAction['kind']>(OWN_COMMENT_KINDS);

/**
 * Applies a plan's actions to GitHub, in order: the one executor of the codebase, for the
 * app's reconciles, the guard's check runs and heartbeats, the claims API's writes and the
 * sessions' own writes alike. Every write but posting a comment is idempotent, so a retry
 * converges; a failure throws at once, leaving the later actions unwritten, which the caller
 * reports (the app retries, the API answers, the client says what to run).
 */
export async function executePlan<A extends WriteAction>(
  writers: Writers,
  key: IssueKey,
  plan: { readonly actions: readonly A[] },
  options: ExecuteOptions<A>,
): Promise<Executed> {
  const repo = { owner: key.owner, repo: key.repo };
  const issue = { ...repo, issue_number: key.number };
  const posted: ThreadComment[] = [];
  const edited: ThreadComment[] = [];
  const checkRuns: CheckRunWrite[] = [];
  const outcome = held(options.rollout);
  const knownLabels = options.knownLabels ?? new KnownLabels();
  const { lease } = options;
  const fenced = lease ? { request: { signal: lease.signal } } : {};
  for (const action of plan.actions) {
    const own = 'own' in writers && OWN.has(action.kind);
    if (outcome === 'disabled' || (outcome === 'observed' && !own)) {
      hold(options.rollout!, outcome, key, action);
      continue;
    }
    lease?.check();
    const octokit = 'own' in writers ? (own ? writers.own : writers.app) : writers;
    try {
      await send(octokit, action);
    } catch (error) {
      // A request the lease aborted: said as the lease's loss, not as a GitHub failure.
      lease?.check();
      throw error;
    }
    options.onWrite?.(action);
  }
  return { posted, edited, checkRuns, outcome };

  async function send(octokit: ProbotOctokit, action: A): Promise<void> {
    switch (action.kind) {
      case 'post-note': {
        // docs/protocol.md §18: a note for a hosted agent goes on its pull request.
        const on = action.onPull === undefined ? issue : { ...repo, issue_number: action.onPull };
        await octokit.rest.issues.createComment({ ...on, body: action.body, ...fenced });
        break;
      }
      case 'edit-note':
        await octokit.rest.issues.updateComment({
          ...repo,
          comment_id: action.commentId,
          body: action.body,
          ...fenced,
        });
        break;
      case 'post-claim': {
        const { data } = await octokit.rest.issues.createComment({
          ...issue,
          body: action.body,
          ...fenced,
        });
        posted.push(threadComment(data));
        break;
      }
      case 'finalise':
      case 'edit-claim': {
        const { data } = await octokit.rest.issues.updateComment({
          ...repo,
          comment_id: action.commentId,
          body: action.body,
          ...fenced,
        });
        if (action.kind === 'edit-claim') edited.push(threadComment(data));
        break;
      }
      case 'delete-comment':
        await octokit.rest.issues.deleteComment({
          ...repo,
          comment_id: action.commentId,
          ...fenced,
        });
        break;
      case 'remove-label':
        await ignoring(404, () =>
          octokit.rest.issues.removeLabel({ ...issue, name: action.label, ...fenced }),
        );
        break;
      case 'add-label':
        await ensureLabel(octokit, key, action, knownLabels);
        await octokit.rest.issues.addLabels({ ...issue, labels: [action.label], ...fenced });
        break;
      case 'unassign':
        await octokit.rest.issues.removeAssignees({
          ...issue,
          assignees: [action.login],
          ...fenced,
        });
        break;
      case 'assign':
        await octokit.rest.issues.addAssignees({ ...issue, assignees: [action.login], ...fenced });
        break;
      case 'react':
        // GitHub answers 200 for a reaction the app left already: a retry converges.
        await octokit.rest.reactions.createForIssueComment({
          ...repo,
          comment_id: action.commentId,
          content: '+1',
          ...fenced,
        });
        break;
      case 'check-run':
        if (options.appLogin === undefined) throw new Error('a check run needs the app login');
        checkRuns.push(await checkRun(octokit, key, action, options.appLogin));
        break;
    }
  }
}

/** What the rollout keys do to the app's writes: send them, or hold them back and why. */
function held(rollout: Rollout | undefined): Executed['outcome'] {
  if (rollout === undefined) return 'sent';
  if (!rollout.enabled) return 'disabled';
  return rollout.mode === 'observe' ? 'observed' : 'sent';
}

/** A write held back: logged as it would have been sent, and counted in observe mode. */
function hold(rollout: Rollout, why: 'observed' | 'disabled', key: IssueKey, action: WriteAction) {
  const issue = issueKeyString(key);
  if (why === 'disabled') {
    rollout.log.debug(
      { issue, kind: action.kind },
      'repository disabled (enabled: false): not sent',
    );
    return;
  }
  rollout.log.info(
    { issue, mode: 'observe', action },
    'observe mode: this write was decided and not sent',
  );
  rollout.onObserve?.(action, key);
}

/**
 * Creates the label with the app's colour and description when the repository lacks it.
 * (Adding a missing label to an issue would create it too, but grey and undescribed.)
 */
async function ensureLabel(
  octokit: ProbotOctokit,
  key: IssueKey,
  { label, role }: { label: string; role: LabelRole },
  knownLabels: KnownLabels,
): Promise<void> {
  if (knownLabels.has(key, label)) return;
  const repo = { owner: key.owner, repo: key.repo };
  try {
    await octokit.rest.issues.getLabel({ ...repo, name: label });
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
    const style = labelStyle(label, role);
    // 422: another replica created it in between; that is what we wanted.
    await ignoring(422, () => octokit.rest.issues.createLabel({ ...repo, name: label, ...style }));
  }
  knownLabels.add(key, label);
}

async function ignoring(status: number, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (statusOf(error) !== status) throw error;
  }
}
