import { z } from 'zod';
import type { PullHead } from '../claims/types.js';
import { REPO_CONFIG_PATH } from '../config/repo-config.js';
import type { IssueKey, RepoKey } from '../keys.js';

/** The `pull_request` actions that (re)set the paths check (docs/protocol.md §11). */
const CHECKED_PULL_ACTIONS = ['opened', 'reopened', 'synchronize', 'edited'] as const;

/** What a `pull_request` or `push` delivery asks of the guard; derived without any call. */
export type GuardEvent =
  | {
      readonly kind: 'pull';
      readonly key: IssueKey;
      readonly head: PullHead;
      readonly action: string;
    }
  | {
      readonly kind: 'push';
      readonly repo: RepoKey;
      readonly branch: string;
      /** The account that pushed (`sender`). */
      readonly pusher: string;
      /** When GitHub took the push (ISO): `repository.pushed_at`, else the delivery's time. */
      readonly at: string;
      /** The pushed head commit. */
      readonly sha: string;
      /** A push to the default branch that changed `.github/claims.yml`. */
      readonly configChanged: boolean;
    };

const Login = z.object({ login: z.string() });
const Repository = z.object({ name: z.string(), owner: Login });
const Common = {
  sender: Login.optional(),
  installation: z.object({ id: z.number().int() }).optional(),
};

/** The fields the guard reads of a `pull_request` delivery, with the types it relies on. */
export const PullRequestPayload = z.object({
  ...Common,
  action: z.string(),
  repository: Repository.extend({ full_name: z.string() }),
  pull_request: z.object({
    number: z.number().int(),
    head: z.object({
      ref: z.string(),
      sha: z.string(),
      repo: z.object({ full_name: z.string() }).nullable(),
    }),
  }),
});

/** The fields the guard reads of a `push` delivery (it has no `action`). */
export const PushPayload = z.object({
  ...Common,
  ref: z.string(),
  after: z.string(),
  deleted: z.boolean().optional(),
  repository: Repository.extend({
    default_branch: z.string().optional(),
    // Push deliveries give Unix seconds here; other events an ISO string.
    pushed_at: z.union([z.number(), z.string()]).nullable().optional(),
  }),
  commits: z
    .array(
      z.object({
        added: z.array(z.string()).optional(),
        modified: z.array(z.string()).optional(),
        removed: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

const BRANCH_REF = 'refs/heads/';

/** Routes a validated `pull_request` delivery: null when its action sets no check. */
export function pullEvent(
  payload: z.infer<typeof PullRequestPayload>,
  installationId: number,
): GuardEvent | null {
  if (!(CHECKED_PULL_ACTIONS as readonly string[]).includes(payload.action)) return null;
  const { repository, pull_request: pull } = payload;
  return {
    kind: 'pull',
    key: {
      installationId,
      owner: repository.owner.login,
      repo: repository.name,
      number: pull.number,
    },
    head: {
      sha: pull.head.sha,
      ref: pull.head.ref,
      sameRepo: isSameRepository(pull.head.repo?.full_name, repository.full_name),
    },
    action: payload.action,
  };
}

/**
 * Whether a pull request's head repository (`owner/name`; absent when its fork was deleted)
 * is its base repository, not a fork. GitHub compares owner and repository names without case.
 */
export function isSameRepository(head: string | undefined, base: string): boolean {
  return head !== undefined && head.toLowerCase() === base.toLowerCase();
}

/** Routes a validated `push` delivery: null for a tag, or a deleted branch. */
export function pushEvent(
  payload: z.infer<typeof PushPayload>,
  installationId: number,
  now: Date,
): GuardEvent | null {
  if (!payload.ref.startsWith(BRANCH_REF) || payload.deleted === true) return null;
  const branch = payload.ref.slice(BRANCH_REF.length);
  const { repository } = payload;
  const pushed = repository.pushed_at;
  const at =
    typeof pushed === 'number'
      ? new Date(pushed * 1000)
      : typeof pushed === 'string' && !Number.isNaN(Date.parse(pushed))
        ? new Date(pushed)
        : now;
  const touched = (payload.commits ?? []).some((c) =>
    [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])].includes(REPO_CONFIG_PATH),
  );
  return {
    kind: 'push',
    repo: { installationId, owner: repository.owner.login, repo: repository.name },
    branch,
    pusher: payload.sender?.login ?? '',
    // Never later than now: a push is not renewed into the future.
    at: new Date(Math.min(at.getTime(), now.getTime())).toISOString(),
    sha: payload.after,
    configChanged: touched && branch === repository.default_branch,
  };
}
