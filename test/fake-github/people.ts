/**
 * What people's claims (docs/protocol.md §16) read of GitHub besides issues and comments, for
 * the GitHub fake: an issue's timeline (`GET …/issues/{n}/timeline`: `assigned`, `unassigned`
 * with their actor, `cross-referenced` by pull requests that mention the issue, and the
 * labels, state changes and comments around them), reactions on issue comments, and
 * organisation membership (`GET /orgs/{org}/members/{username}`).
 */
import type { Payloads } from './payloads.js';
import { type Reply, type Route, type RouteContext, route } from './router.js';
import {
  type Change,
  type CommentRecord,
  HttpError,
  type IssueRecord,
  type RepoRecord,
  type State,
  validationFailed,
} from './state.js';

/** One entry of an issue's timeline, as the fake keeps it (rendered when read). */
export type TimelineRecord =
  | {
      readonly kind: 'assigned' | 'unassigned';
      readonly id: number;
      readonly actor: string;
      readonly assignee: string;
      readonly at: string;
    }
  | {
      readonly kind: 'labeled' | 'unlabeled';
      readonly id: number;
      readonly actor: string;
      readonly label: string;
      readonly at: string;
    }
  | {
      readonly kind: 'closed' | 'reopened';
      readonly id: number;
      readonly actor: string;
      readonly at: string;
    }
  /** A comment: rendered from the comment as it is now, and gone once it is deleted. */
  | { readonly kind: 'commented'; readonly commentId: number }
  /** A pull request whose body mentions the issue: rendered from the pull request as it is now. */
  | {
      readonly kind: 'cross-referenced';
      readonly actor: string;
      readonly source: IssueRecord;
      readonly at: string;
    };

/** A reaction on an issue comment. */
export interface ReactionRecord {
  readonly id: number;
  readonly user: string;
  readonly content: string;
  readonly createdAt: string;
}

/** GitHub's reaction types, the keys of a comment's `reactions` rollup. */
export const REACTION_CONTENTS = [
  '+1',
  '-1',
  'laugh',
  'hooray',
  'confused',
  'heart',
  'rocket',
  'eyes',
] as const;

let nextEventId = 7_000_000_000;
let nextReactionId = 8_000_000_000;

/** A reaction id no other reaction has. */
export function newReactionId(): number {
  return nextReactionId++;
}

/** Appends what `change` shows on its issue's timeline, as GitHub records it. */
export function recordTimeline(change: Change): void {
  if (change.kind === 'issue_comment') {
    if (change.action === 'created') {
      change.issue.timeline.push({ kind: 'commented', commentId: change.comment.id });
    }
    return;
  }
  if (change.kind !== 'issues') return;
  const at = change.issue.updatedAt;
  const base = { id: nextEventId++, actor: change.actor, at };
  switch (change.action) {
    case 'assigned':
    case 'unassigned':
      change.issue.timeline.push({ ...base, kind: change.action, assignee: change.assignee });
      break;
    case 'labeled':
    case 'unlabeled':
      change.issue.timeline.push({ ...base, kind: change.action, label: change.label.name });
      break;
    case 'closed':
    case 'reopened':
      change.issue.timeline.push({ ...base, kind: change.action });
      break;
  }
}

/**
 * The issues a pull request's body mentions (`#12`, `acme/widgets#12`, closing keywords
 * included) get a `cross-referenced` event, as GitHub adds one when the pull request is
 * opened. Unknown numbers and the pull request itself are skipped.
 */
export function crossReference(state: State, pull: IssueRecord, body: string, at: string): void {
  const seen = new Set<IssueRecord>();
  for (const match of body.matchAll(/(?:\b([\w.-]+\/[\w.-]+))?#(\d+)\b/g)) {
    const repo = state.findRepo(match[1] ?? pull.repo);
    const issue = repo?.issues.get(Number(match[2]));
    if (!issue || issue === pull || issue.fate !== null || seen.has(issue)) continue;
    seen.add(issue);
    issue.timeline.push({ kind: 'cross-referenced', actor: pull.author, source: pull, at });
  }
}

/** The access checks of routes.ts the people endpoints share. */
export interface PeopleRouteAccess {
  repoOf(ctx: RouteContext, write?: boolean): RepoRecord;
  issueOf(ctx: RouteContext): { repo: RepoRecord; issue: IssueRecord };
  commentOf(ctx: RouteContext): CommentRecord;
  actor(ctx: RouteContext): string;
  page<T>(ctx: RouteContext, items: readonly T[], render: (item: T) => unknown): Reply;
}

/** The timeline, reaction and membership endpoints. */
export function peopleRoutes(
  deps: { readonly state: State; readonly payloads: Payloads; readonly apiUrl: () => string },
  access: PeopleRouteAccess,
): Route[] {
  const { state, payloads: p } = deps;

  function eventJson(repo: RepoRecord, record: TimelineRecord): unknown {
    switch (record.kind) {
      case 'commented': {
        const comment = state.comments.get(record.commentId);
        if (!comment) return undefined;
        return { ...p.comment(comment), event: 'commented', actor: p.user(comment.author) };
      }
      case 'cross-referenced':
        return {
          actor: p.user(record.actor),
          created_at: record.at,
          updated_at: record.at,
          source: { type: 'issue', issue: p.issue(record.source) },
          event: 'cross-referenced',
        };
      default: {
        const json: Record<string, unknown> = {
          id: record.id,
          node_id: `E_kwDO${Buffer.from(String(record.id)).toString('base64url')}`,
          url: `${deps.apiUrl()}/repos/${repo.fullName}/issues/events/${record.id}`,
          actor: p.user(record.actor),
          event: record.kind,
          commit_id: null,
          commit_url: null,
          created_at: record.at,
          performed_via_github_app: null,
        };
        if (record.kind === 'assigned' || record.kind === 'unassigned') {
          json.assignee = p.user(record.assignee);
        }
        if (record.kind === 'labeled' || record.kind === 'unlabeled') {
          const label = state.findLabel(repo, record.label);
          json.label = { name: record.label, color: label?.color ?? 'ededed' };
        }
        return json;
      }
    }
  }

  function reactionJson(reaction: ReactionRecord): unknown {
    return {
      id: reaction.id,
      node_id: `REA_lADO${Buffer.from(String(reaction.id)).toString('base64url')}`,
      user: p.user(reaction.user),
      content: reaction.content,
      created_at: reaction.createdAt,
    };
  }

  return [
    route('GET', '/repos/:owner/:repo/issues/:number/timeline', (ctx) => {
      const { repo, issue } = access.issueOf(ctx);
      const events = issue.timeline.map((record) => eventJson(repo, record)).filter(Boolean);
      return access.page(ctx, events, (event) => event);
    }),
    route('GET', '/repos/:owner/:repo/issues/comments/:id/reactions', (ctx) => {
      const comment = access.commentOf(ctx);
      const content = ctx.query.get('content');
      const reactions = comment.reactions.filter((r) => content === null || r.content === content);
      return access.page(ctx, reactions, reactionJson);
    }),
    route('POST', '/repos/:owner/:repo/issues/comments/:id/reactions', (ctx) => {
      const comment = access.commentOf(ctx);
      const login = access.actor(ctx);
      const content = (ctx.body as { content?: unknown } | null)?.content;
      if (
        typeof content !== 'string' ||
        !(REACTION_CONTENTS as readonly string[]).includes(content)
      ) {
        throw validationFailed('Reaction', 'content', 'invalid');
      }
      // GitHub answers 200 with the reaction the account already left, 201 for a new one.
      const existing = comment.reactions.find(
        (r) => r.content === content && r.user.toLowerCase() === login.toLowerCase(),
      );
      if (existing) return { status: 200, body: reactionJson(existing) };
      const reaction: ReactionRecord = {
        id: newReactionId(),
        user: state.user(login).login,
        content,
        createdAt: state.timestamp(),
      };
      comment.reactions.push(reaction);
      return { status: 201, body: reactionJson(reaction) };
    }),
    route('GET', '/orgs/:org/members/:login', (ctx) => {
      const org = state.users.get(ctx.params.org!.toLowerCase());
      if (org?.type !== 'Organization') throw new HttpError(404, 'Not Found');
      if (!isOrgMember(state, org.login, ctx.params.login!)) throw new HttpError(404, 'Not Found');
      return { status: 204 };
    }),
  ];
}

/**
 * Whether `login` is a member of `org`: added with `addOrgMember`, or reported `MEMBER` as
 * its association (GitHub's `author_association` for an organisation's members).
 */
export function isOrgMember(state: State, org: string, login: string): boolean {
  if (state.orgMembers.has(`${org}:${login}`.toLowerCase())) return true;
  const user = state.users.get(login.toLowerCase());
  return user?.association === 'MEMBER';
}

/** A comment's `reactions` rollup, as GitHub renders it on the comment. */
export function reactionRollup(comment: CommentRecord, url: string): Record<string, unknown> {
  const counts = Object.fromEntries(
    REACTION_CONTENTS.map((content) => [
      content,
      comment.reactions.filter((r) => r.content === content).length,
    ]),
  );
  return { url, total_count: comment.reactions.length, ...counts };
}
