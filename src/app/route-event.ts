import type { EmitterWebhookEvent } from '@octokit/webhooks';
import { z } from 'zod';
import { parseClaimMarker } from '../claims/marker.js';
import { sameName } from '../claims/names.js';
import { pathLineOf } from '../claims/paths.js';
import { isTrustedAuthor } from '../claims/trusted-claims.js';
import type { ClaimMarker, Hint } from '../claims/types.js';
import { parseDuration } from '../config/duration.js';
import { MIN_STALE_AFTER } from '../config/repo-config.js';
import {
  type GuardEvent,
  PullRequestPayload,
  PushPayload,
  pullEvent,
  pushEvent,
} from '../guard/guard-event.js';
import { hostedPullRoute } from '../hosted/hosted-pull-event.js';
import type { IssueKey } from '../keys.js';
import { parseCommand } from '../people/commands.js';
import type { ReconcileRequest } from '../queue/queue.js';

/** The events of docs/protocol.md §5 this app subscribes to. */
export const SUBSCRIBED_EVENTS = [
  'issue_comment.created',
  'issue_comment.edited',
  'issue_comment.deleted',
  // opened, edited: for the work queue's index only (§9); assigned, unassigned: for it and
  // for people's claims (§16).
  'issues.opened',
  'issues.edited',
  'issues.assigned',
  'issues.unassigned',
  'issues.labeled',
  'issues.unlabeled',
  'issues.closed',
  'issues.reopened',
  'issues.transferred',
  'issues.deleted',
  'installation.created',
  'installation.new_permissions_accepted',
  'installation.unsuspend',
  'installation.deleted',
  'installation.suspend',
  'installation_repositories.added',
  // docs/protocol.md §11: the pull-request guard and branch heartbeats.
  'pull_request.opened',
  'pull_request.reopened',
  'pull_request.synchronize',
  'pull_request.edited',
  'pull_request.closed', // §18: a hosted agent's pull request closed ends its claim
  'push',
] as const;

/** What one webhook asks of the app; derived without any API call. */
export type EventRoute =
  | {
      readonly kind: 'reconcile';
      readonly request: ReconcileRequest;
      /** Relevant only if this is one of the repository's status labels. */
      readonly label?: string;
      /** Relevant only if this bot is one of the repository's trustedBots. */
      readonly bot?: string;
      /** Only with people's claims on (§16): an assignment, a command (and their pinned `label`). */
      readonly people?: true;
      readonly hosted?: string; // relevant only if one of `agents.hosted` (§18)
      readonly assignee?: string; // an (un)assignment's: relevant if one of `agents.hosted`
      /**
       * The edit only moved this comment's heartbeat (or a stage without a label): if the
       * comment holds the issue, the sweep verifies it at its indexed deadline instead.
       */
      readonly heartbeatOf?: number;
      /** The issue's old place (it was transferred): dropped from the index. */
      readonly forget?: IssueKey;
    }
  | { readonly kind: 'forget'; readonly key: IssueKey }
  /** A pull request to check or a push to weigh (§11); `hosted`: a hosted agent's (§18). */
  | {
      readonly kind: 'guard';
      readonly event: GuardEvent | null;
      readonly hosted?: { readonly login: string; readonly requests: readonly ReconcileRequest[] };
    }
  /** The app was uninstalled or suspended there: its cached octokit is dropped. */
  | { readonly kind: 'uninstalled'; readonly installationId: number }
  | {
      readonly kind: 'resync';
      readonly installationId: number;
      /** `owner/name` of the repositories to resync; undefined: every repository. */
      readonly repos?: readonly string[];
    }
  | { readonly kind: 'ignore'; readonly why: string }
  /** The payload lacks a field the app reads, or has it with the wrong type. */
  | { readonly kind: 'malformed'; readonly problem: string };

type Subscribed = EmitterWebhookEvent<(typeof SUBSCRIBED_EVENTS)[number]>;

interface RepoRef {
  readonly name: string;
  readonly owner: { readonly login: string };
}

/**
 * Routes a webhook to the work it asks for. Pure, and cheap: it runs in the webhook's
 * 10-second window, and docs/protocol.md §5 says the app's own echoes make no API call, so the sender
 * check comes first.
 */
export function routeEvent(event: Subscribed, appLogin: string, now: Date): EventRoute {
  // Signed by GitHub, yet checked: a payload of another shape must be acknowledged and logged
  // naming the field, not crash the handler into a 500 that every redelivery repeats.
  // The name comes from the `x-github-event` header: a delivery signed with the secret may
  // still carry one that is no event name (`issue_comment.created`), and Probot hands it to
  // the handlers subscribed to that string.
  if (!Object.hasOwn(PAYLOAD_SHAPES, event.name)) {
    return {
      kind: 'malformed',
      problem: `x-github-event: ${JSON.stringify(String(event.name).slice(0, 64))} is not an event name`,
    };
  }
  const shape = PAYLOAD_SHAPES[event.name].safeParse(event.payload);
  if (!shape.success) return { kind: 'malformed', problem: describeProblem(shape.error) };
  const { payload } = event;
  if (payload.sender && sameName(payload.sender.login, appLogin)) {
    return { kind: 'ignore', why: 'own echo' };
  }
  const installationId = payload.installation?.id;
  if (installationId === undefined) return { kind: 'ignore', why: 'no installation' };

  switch (event.name) {
    case 'installation':
      if (event.payload.action === 'deleted' || event.payload.action === 'suspend') {
        return { kind: 'uninstalled', installationId };
      }
      return { kind: 'resync', installationId };
    case 'installation_repositories': {
      const repos = event.payload.repositories_added.map((r) => r.full_name);
      return { kind: 'resync', installationId, repos };
    }
    case 'issue_comment':
      return routeComment(event, installationId, appLogin, now);
    case 'issues':
      return routeIssue(event, installationId, now);
    case 'pull_request': {
      const checked = pullEvent(shape.data as z.infer<typeof PullRequestPayload>, installationId);
      const hosted = hostedPullRoute(event.payload, installationId, now);
      return hosted ? { kind: 'guard', event: checked, hosted } : guard(checked);
    }
    case 'push':
      return guard(pushEvent(shape.data as z.infer<typeof PushPayload>, installationId, now));
  }
}

function guard(event: GuardEvent | null): EventRoute {
  return event === null ? { kind: 'ignore', why: 'nothing to check' } : { kind: 'guard', event };
}

function routeComment(
  event: EmitterWebhookEvent<'issue_comment'>,
  installationId: number,
  appLogin: string,
  now: Date,
): EventRoute {
  const { payload } = event;
  // docs/protocol.md §2: a marker in a pull request's conversation is not a claim.
  if (payload.issue.pull_request) return { kind: 'ignore', why: 'pull request' };
  const { comment } = payload;
  const author = comment.user?.login ?? '';
  const body = comment.body ?? '';
  const previous = payload.action === 'edited' ? (payload.changes.body?.from ?? null) : null;
  // Forged markers must cost nothing: the author is checked before any marker is read (a
  // comment of an untrusted author is nothing, marker or not). A bot may be listed in the
  // repository's trustedBots, which only the reconcile reads, so bots pass on to it.
  const collaborator = isTrustedAuthor(author, comment.author_association, []);
  const bot = comment.user?.type === 'Bot';
  // docs/protocol.md §16: people's commands come from anyone (the reconcile weighs who may),
  // never from bots, and run when posted: an edit after the fact runs nothing.
  const slug = appLogin.replace(/\[bot\]$/i, '');
  const command = !bot && payload.action === 'created' && parseCommand(body, slug) !== null;
  const people = () => ({
    ...reconcile(installationId, payload.repository, payload.issue.number, reasonOf(event), []),
    people: true as const,
  });
  if (!collaborator && !bot) {
    return command ? people() : { kind: 'ignore', why: 'untrusted author' };
  }
  const marker = parseClaimMarker(body);
  const before = previous === null ? null : parseClaimMarker(previous);
  // A comment that neither is nor was a claim cannot change who holds the issue.
  if (!marker && !before) return command ? people() : { kind: 'ignore', why: 'no marker' };

  const hints: Hint[] = [];
  // A deleted claim, or one whose marker was edited away, is gone from the thread; only the
  // event still tells whose assignment it made (docs/protocol.md §4 row 6).
  const gone = payload.action === 'deleted' ? marker && body : before && !marker ? previous : null;
  if (gone) {
    hints.push({
      kind: 'comment-deleted',
      commentId: comment.id,
      author,
      authorAssociation: comment.author_association,
      body: gone,
      at: now.toISOString(),
    });
  }
  if (before?.stage === 'released' && marker && marker.stage !== 'released') {
    hints.push({
      kind: 'release-reverted',
      commentId: comment.id,
      ...(before.outcome ? { outcome: before.outcome } : {}),
      at: now.toISOString(),
    });
  }
  const route = reconcile(
    installationId,
    payload.repository,
    payload.issue.number,
    reasonOf(event),
    hints,
  );
  return {
    ...route,
    ...(collaborator ? {} : { bot: author }),
    // A changed path line is not a heartbeat: the paths it holds must be weighed again.
    ...(marker && before && isHeartbeat(before, marker, now) && samePaths(previous, body)
      ? { heartbeatOf: comment.id }
      : {}),
  };
}

/** The shortest stale window any repository may set. */
const SHORTEST_WINDOW_MS = parseDuration(MIN_STALE_AFTER);

/**
 * An edit that keeps the claim's identity and only moves it forward among stages that need
 * no label: it cannot change who holds the issue, nor any label or assignee, so long as the
 * comment held the issue before it. Not one when `updated` lies further ahead of the clock
 * than the shortest stale window: under docs/protocol.md §3's clock-skew cap the claim may be
 * stale at once, which the reconcile decides with the repository's own window.
 */
function isHeartbeat(before: ClaimMarker, after: ClaimMarker, now: Date): boolean {
  const quiet = (stage: string) => stage !== 'released' && stage !== 'blocked';
  return (
    quiet(before.stage) &&
    quiet(after.stage) &&
    before.session === after.session &&
    before.lane === after.lane &&
    before.branch === after.branch &&
    before.assignee === after.assignee &&
    before.started.getTime() === after.started.getTime() &&
    after.updated.getTime() >= before.updated.getTime() &&
    after.updated.getTime() - now.getTime() <= SHORTEST_WINDOW_MS
  );
}

/** Whether two bodies carry the same path line (docs/protocol.md §10), or both none. */
function samePaths(before: string | null, after: string): boolean {
  return JSON.stringify(pathLineOf(before ?? '')) === JSON.stringify(pathLineOf(after));
}

function routeIssue(
  event: EmitterWebhookEvent<'issues'>,
  installationId: number,
  now: Date,
): EventRoute {
  const { payload } = event;
  switch (payload.action) {
    case 'labeled':
    case 'unlabeled': {
      const label = payload.label?.name;
      if (!label) return { kind: 'ignore', why: 'no label' };
      const hint: Hint = {
        kind: payload.action === 'labeled' ? 'label-added' : 'label-removed',
        label,
        by: payload.sender.login,
        // When the label changed, not when we heard of it: the issue snapshot is stamped then,
        // and decide() must not let a late delivery release a claim posted after the change.
        at: payload.issue.updated_at ?? now.toISOString(),
      };
      const route = reconcile(
        installationId,
        payload.repository,
        payload.issue.number,
        reasonOf(event),
        [hint],
      );
      return { ...route, label };
    }
    // §16: an assignment may start or end a person's claim; §18 a hosted agent's (echoes: above).
    case 'assigned':
    case 'unassigned': {
      const { repository, issue, assignee } = payload;
      const route = reconcile(installationId, repository, issue.number, reasonOf(event), []);
      return { ...route, people: true, assignee: assignee?.login };
    }
    case 'closed':
    case 'reopened':
      return reconcile(
        installationId,
        payload.repository,
        payload.issue.number,
        reasonOf(event),
        [],
      );
    case 'transferred': {
      // The comments moved with the issue: reconcile it where it lives now.
      const { new_issue: issue, new_repository: repository } = payload.changes;
      const owner = repository.owner?.login;
      if (!owner) return { kind: 'ignore', why: 'transferred to an unknown owner' };
      const route = reconcile(
        installationId,
        { name: repository.name, owner: { login: owner } },
        issue.number,
        reasonOf(event),
        [],
      );
      return {
        ...route,
        forget: issueKey(installationId, payload.repository, payload.issue.number),
      };
    }
    case 'deleted':
      return {
        kind: 'forget',
        key: issueKey(installationId, payload.repository, payload.issue.number),
      };
    default:
      return { kind: 'ignore', why: `issues.${payload.action} is not handled` };
  }
}

function reconcile(
  installationId: number,
  repository: RepoRef,
  number: number,
  reason: string,
  hints: Hint[],
): EventRoute & { kind: 'reconcile' } {
  return {
    kind: 'reconcile',
    request: { key: issueKey(installationId, repository, number), hints, reason },
  };
}

function reasonOf(event: { name: string; payload: { action: string } }): string {
  return `${event.name}.${event.payload.action}`;
}

function issueKey(installationId: number, repository: RepoRef, number: number): IssueKey {
  return { installationId, owner: repository.owner.login, repo: repository.name, number };
}

const Login = z.object({ login: z.string() });
const Repository = z.object({ name: z.string(), owner: Login });
const Common = {
  sender: Login.optional(),
  installation: z.object({ id: z.number().int() }).optional(),
};

/**
 * The fields routeEvent reads of each event, with the types it relies on. `z.object`, not
 * `z.looseObject`: routeEvent reads the payload itself and throws the parsed copy away, and
 * copying every key of a payload (a repository alone has ~90) cost ~16 µs a delivery, more
 * than the rest of the webhook path (`npm run bench`, throughput).
 */
const PAYLOAD_SHAPES = {
  installation: z.object({ ...Common }),
  installation_repositories: z.object({
    ...Common,
    repositories_added: z.array(z.object({ full_name: z.string() })),
  }),
  issue_comment: z.object({
    ...Common,
    action: z.string(),
    repository: Repository,
    issue: z.object({ number: z.number().int() }),
    comment: z.object({
      id: z.number().int(),
      body: z.string().nullable(),
      author_association: z.string(),
      user: z.object({ login: z.string(), type: z.string().optional() }).nullable(),
    }),
    changes: z.object({ body: z.object({ from: z.string() }).optional() }).optional(),
  }),
  issues: z.object({
    ...Common,
    action: z.string(),
    repository: Repository,
    issue: z.object({ number: z.number().int(), updated_at: z.string().optional() }),
    label: z.object({ name: z.string() }).optional(),
    assignee: Login.nullable().optional(),
  }),
  pull_request: PullRequestPayload,
  push: PushPayload,
} satisfies Record<Subscribed['name'], z.ZodType>;

function describeProblem(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`)
    .join('; ');
}
