import type { ProbotOctokit } from 'probot';
import type { Action, LabelRole, Plan } from '../claims/decide.js';
import type { IssueKey } from '../store/store.js';
import { statusOf } from './thread.js';

/** How the app creates its status labels when a repository has none (SPEC §4 row 1). */
export interface LabelStyle {
  readonly color: string;
  readonly description: string;
}

/** The colour and description of each status label the app creates. */
export function labelStyle(label: string, role: LabelRole): LabelStyle {
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

/** Applies a Plan to GitHub, in order. Every write is idempotent, so a retry converges. */
export async function executePlan(
  octokit: ProbotOctokit,
  key: IssueKey,
  plan: Plan,
  options: {
    knownLabels: KnownLabels;
    onWrite?: (action: Action) => void;
  },
): Promise<void> {
  const repo = { owner: key.owner, repo: key.repo };
  const issue = { ...repo, issue_number: key.number };
  for (const action of plan.actions) {
    switch (action.kind) {
      case 'post-note':
        await octokit.rest.issues.createComment({ ...issue, body: action.body });
        break;
      case 'finalise':
        await octokit.rest.issues.updateComment({
          ...repo,
          comment_id: action.commentId,
          body: action.body,
        });
        break;
      case 'remove-label':
        await ignoring(404, () =>
          octokit.rest.issues.removeLabel({ ...issue, name: action.label }),
        );
        break;
      case 'add-label':
        await ensureLabel(octokit, key, action, options.knownLabels);
        await octokit.rest.issues.addLabels({ ...issue, labels: [action.label] });
        break;
      case 'unassign':
        await octokit.rest.issues.removeAssignees({ ...issue, assignees: [action.login] });
        break;
      case 'assign':
        await octokit.rest.issues.addAssignees({ ...issue, assignees: [action.login] });
        break;
    }
    options.onWrite?.(action);
  }
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
