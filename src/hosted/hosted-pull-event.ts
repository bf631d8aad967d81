import { z } from 'zod';
import type { Hint } from '../claims/types.js';
import type { IssueKey } from '../keys.js';

/** A reconcile of one issue, as the work queue takes it. */
interface IssueReconcile {
  readonly key: IssueKey;
  readonly hints: readonly Hint[];
  readonly reason: string;
}

import { closingLinks } from './closing-links.js';
import { DEFAULT_HOSTED_AGENTS, isHostedLogin } from './hosted-logins.js';

/** The `pull_request` actions that start, change or end a hosted agent's claim (§18). */
const HOSTED_PULL_ACTIONS = ['opened', 'edited', 'closed', 'reopened'];

/** The fields read of a `pull_request` delivery for hosted agents; others are not copied. */
const HostedPullPayload = z.object({
  action: z.string(),
  repository: z.object({
    full_name: z.string(),
    name: z.string(),
    owner: z.object({ login: z.string() }),
  }),
  pull_request: z.object({
    number: z.number().int(),
    state: z.string(),
    body: z.string().nullable().optional(),
    html_url: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    user: z.object({ login: z.string(), type: z.string().optional() }).nullable(),
    head: z.object({ ref: z.string() }),
  }),
  changes: z.object({ body: z.object({ from: z.string() }).optional() }).optional(),
});

/** What a hosted agent's pull request event asks: reconcile these issues, with this hint. */
interface HostedPullEvent {
  /** The pull request's author: the repository's `agents.hosted` decides whether it counts. */
  readonly login: string;
  /** The issues of the repository its body links with a closing keyword (before and after an edit). */
  readonly issues: readonly number[];
  readonly repo: { readonly owner: string; readonly repo: string };
  /** `pull_request.opened` and so on, the reconciles' reason. */
  readonly reason: string;
  readonly hint: Hint & { readonly kind: 'hosted-pull' };
}

/**
 * docs/protocol.md §18: a `pull_request` delivery of a bot (GitHub's `type: "Bot"`, a `[bot]`
 * login, or one of the default hosted agents) whose body links issues with a closing keyword:
 * those issues are reconciled, with the pull request as the event showed it. An edit that
 * took a link away reconciles the issue it linked too. Null for anything else. Pure.
 */
export function hostedPullEvent(payload: unknown, now: Date): HostedPullEvent | null {
  const shape = HostedPullPayload.safeParse(payload);
  if (!shape.success || !HOSTED_PULL_ACTIONS.includes(shape.data.action)) return null;
  const { pull_request: pull, repository, changes } = shape.data;
  const user = pull.user;
  if (user === null) return null;
  const bot =
    user.type === 'Bot' ||
    /\[bot\]$/i.test(user.login) ||
    isHostedLogin(user.login, DEFAULT_HOSTED_AGENTS);
  if (!bot) return null;
  const body = pull.body ?? '';
  const linked = closingLinks(body, repository.full_name);
  const before = changes?.body ? closingLinks(changes.body.from, repository.full_name) : [];
  const issues = [...new Set([...linked, ...before])].filter((n) => n !== pull.number);
  if (issues.length === 0) return null;
  return {
    login: user.login,
    repo: { owner: repository.owner.login, repo: repository.name },
    reason: `pull_request.${shape.data.action}`,
    issues,
    hint: {
      kind: 'hosted-pull',
      number: pull.number,
      author: user.login,
      body,
      open: pull.state === 'open',
      head: pull.head.ref,
      url: pull.html_url,
      createdAt: pull.created_at,
      updatedAt: pull.updated_at,
      at: now.toISOString(),
    },
  };
}

/**
 * The reconciles a hosted agent's pull request event asks (docs/protocol.md §18), one per
 * issue it closes, each with the pull request as the event showed it; null when none.
 */
export function hostedPullRoute(
  payload: unknown,
  installationId: number,
  now: Date,
): { readonly login: string; readonly requests: readonly IssueReconcile[] } | null {
  const event = hostedPullEvent(payload, now);
  if (event === null) return null;
  const requests = event.issues.map((number) => ({
    key: { installationId, ...event.repo, number },
    hints: [event.hint],
    reason: event.reason,
  }));
  return { login: event.login, requests };
}
