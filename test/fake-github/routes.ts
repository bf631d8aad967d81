/**
 * The REST endpoints the GitHub fake serves (paths relative to `/api/v3`). Each handler
 * checks access the way GitHub does for an app with issues:write, metadata:read and
 * contents:read, reads or mutates the model, and renders GitHub's JSON.
 */
import { createHash } from 'node:crypto';
import type { AppIdentity, Payloads } from './payloads.js';
import { peopleRoutes } from './people.js';
import { paginate, type Reply, type Route, type RouteContext, route } from './router.js';
import {
  type CommentRecord,
  HttpError,
  type IssueRecord,
  type RepoRecord,
  type State,
  validationFailed,
} from './state.js';

/** What the endpoints need from the server. */
export interface RouteDeps {
  readonly state: State;
  readonly payloads: Payloads;
  readonly app: AppIdentity;
  readonly apiUrl: () => string;
  /** Issues a new installation access token. */
  readonly mintInstallationToken: (installationId: number) => { token: string; expiresAt: string };
  /** The app and its credentials for a manifest-flow code, once; undefined for unknown codes. */
  readonly convertManifest: (code: string) => Json | undefined;
}

/** GitHub's limit on a comment body (docs: "body is too long (maximum is 65536 characters)"). */
const MAX_COMMENT_LENGTH = 65_536;

type Json = Record<string, unknown>;

function asObject(body: unknown): Json {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : {};
}

function stringList(value: unknown, resource: string, field: string): string[] {
  if (!Array.isArray(value)) throw validationFailed(resource, field, 'invalid');
  return value.map((item) => {
    if (typeof item === 'string') return item;
    const name = asObject(item).name;
    if (typeof name === 'string') return name;
    throw validationFailed(resource, field, 'invalid');
  });
}

function optionalString(body: Json, field: string, resource: string): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationFailed(resource, field, 'invalid');
  return value;
}

function sinceParam(query: URLSearchParams): number | undefined {
  const since = query.get('since');
  if (since === null) return undefined;
  const at = Date.parse(since);
  if (Number.isNaN(at)) throw validationFailed('IssueComment', 'since', 'invalid');
  return at;
}

function gitBlobSha(content: string): string {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
    .digest('hex');
}

/** All endpoints of the fake. */
export function routes(deps: RouteDeps): Route[] {
  const { state, payloads: p } = deps;

  const ok = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({
    status,
    body,
    ...(headers ? { headers } : {}),
  });

  /** A page of rendered items with GitHub's `Link` header. */
  function page<T>(ctx: RouteContext, items: readonly T[], render: (item: T) => unknown): Reply {
    const { items: slice, link } = paginate(items, ctx.query, `${deps.apiUrl()}${ctx.path}`);
    return ok(slice.map(render), 200, link ? { link } : undefined);
  }

  /** The acting login for a write; 401 for an anonymous one. */
  function actor(ctx: RouteContext): string {
    if (ctx.auth.kind === 'installation' || ctx.auth.kind === 'user') return ctx.auth.login;
    throw new HttpError(401, 'Requires authentication');
  }

  /**
   * The repository a request names. An installation token reads only its installation's
   * repositories and public ones, and writes only its own: GitHub answers 404 for what the
   * caller may not see and 403 for what it may see but not change.
   */
  function repoOf(ctx: RouteContext, write = false): RepoRecord {
    const repo = state.findRepo(`${ctx.params.owner}/${ctx.params.repo}`);
    if (!repo) throw new HttpError(404, 'Not Found');
    if (ctx.auth.kind === 'installation' && repo.installationId !== ctx.auth.installationId) {
      if (repo.private) throw new HttpError(404, 'Not Found');
      if (write) throw new HttpError(403, 'Resource not accessible by integration');
    }
    if (ctx.auth.kind === 'anonymous' && repo.private) throw new HttpError(404, 'Not Found');
    // A person's token sees a private repository only with a role on it.
    if (ctx.auth.kind === 'user' && repo.private && state.roleOf(repo, ctx.auth.login) === 'none') {
      throw new HttpError(404, 'Not Found');
    }
    if (write) actor(ctx);
    return repo;
  }

  function issueOf(ctx: RouteContext, write = false): { repo: RepoRecord; issue: IssueRecord } {
    const repo = repoOf(ctx, write);
    const number = Number(ctx.params.number);
    const fate = repo.issues.get(number)?.fate;
    if (fate?.kind === 'transferred') {
      // GitHub redirects requests for a transferred issue to its new home.
      const rest = ctx.path.replace(/^\/repos\/[^/]+\/[^/]+\/issues\/\d+/, '');
      const url = `${deps.apiUrl()}/repos/${fate.to.repo}/issues/${fate.to.number}${rest}`;
      throw new HttpError(301, 'Moved Permanently', { url }, { location: url });
    }
    return { repo, issue: state.issue(repo, number) };
  }

  function commentOf(ctx: RouteContext, write = false): CommentRecord {
    const repo = repoOf(ctx, write);
    const comment = state.comment(repo, Number(ctx.params.id));
    if (write) {
      const login = actor(ctx);
      // An app with issues:write may edit any comment; a person only their own, unless a
      // collaborator.
      if (ctx.auth.kind === 'user' && !state.mayModerate(comment, login)) {
        throw new HttpError(403, 'Must have admin rights to Repository.');
      }
    }
    return comment;
  }

  function labelsBody(body: unknown): string[] {
    // GitHub accepts `{ labels: [...] }` or a bare array, of names or `{ name }` objects.
    return stringList(Array.isArray(body) ? body : asObject(body).labels, 'Label', 'labels');
  }

  function commentBody(body: unknown): string {
    const text = asObject(body).body;
    if (typeof text !== 'string') throw validationFailed('IssueComment', 'body', 'missing_field');
    if (text.length > MAX_COMMENT_LENGTH) {
      throw new HttpError(422, 'Validation Failed', {
        errors: [
          {
            resource: 'IssueComment',
            code: 'custom',
            field: 'body',
            message: `body is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`,
          },
        ],
      });
    }
    return text;
  }

  function installationOf(ctx: RouteContext) {
    const installation = state.installations.get(Number(ctx.params.id));
    if (!installation) throw new HttpError(404, 'Not Found');
    return installation;
  }

  /** The login of a GitHub App user token; other credentials get GitHub's refusals. */
  function appUser(ctx: RouteContext): string {
    if (ctx.auth.kind === 'user' && ctx.auth.appUserToken) return ctx.auth.login;
    if (ctx.auth.kind === 'anonymous') throw new HttpError(401, 'Requires authentication');
    throw new HttpError(
      403,
      'You must authenticate with an access token authorized to a GitHub App in order to list installations',
    );
  }

  /** Whether `login` has explicit access to `repo`: its owner, or a member or collaborator. */
  function reaches(login: string, repo: RepoRecord): boolean {
    if (repo.owner.toLowerCase() === login.toLowerCase()) return true;
    return ['OWNER', 'MEMBER', 'COLLABORATOR'].includes(state.association(login, repo.fullName));
  }

  return [
    // ---- the app and its installations (JWT) -------------------------------------------
    route('GET', '/app', () => ok(p.app()), 'jwt'),
    route(
      'GET',
      '/app/installations',
      (ctx) => page(ctx, [...state.installations.values()], p.installation),
      'jwt',
    ),
    route('GET', '/app/installations/:id', (ctx) => ok(p.installation(installationOf(ctx))), 'jwt'),
    route(
      'POST',
      '/app/installations/:id/access_tokens',
      (ctx) => {
        const installation = installationOf(ctx);
        const { token, expiresAt } = deps.mintInstallationToken(installation.id);
        return ok(
          {
            token,
            expires_at: expiresAt,
            permissions: {
              issues: 'write',
              metadata: 'read',
              contents: 'read',
              checks: 'write',
              pull_requests: 'read',
            },
            repository_selection: 'selected',
          },
          201,
        );
      },
      'jwt',
    ),
    route(
      'GET',
      '/repos/:owner/:repo/installation',
      (ctx) => {
        const repo = state.findRepo(`${ctx.params.owner}/${ctx.params.repo}`);
        const installation =
          repo?.installationId == null ? undefined : state.installations.get(repo.installationId);
        if (!installation) throw new HttpError(404, 'Not Found');
        return ok(p.installation(installation));
      },
      'jwt',
    ),

    // The manifest flow's last step (no authentication): the code GitHub redirected with.
    route('POST', '/app-manifests/:code/conversions', (ctx) => {
      const converted = deps.convertManifest(ctx.params.code!);
      if (!converted) throw new HttpError(404, 'Not Found');
      return ok(converted, 201);
    }),

    // ---- the authenticated identity ----------------------------------------------------
    route('GET', '/installation/repositories', (ctx) => {
      if (ctx.auth.kind !== 'installation') {
        throw new HttpError(403, 'You must authenticate with an installation access token.');
      }
      const repos = state.reposOf(ctx.auth.installationId);
      const { items, link } = paginate(repos, ctx.query, `${deps.apiUrl()}${ctx.path}`);
      return ok(
        {
          total_count: repos.length,
          repository_selection: 'selected',
          repositories: items.map(p.repository),
        },
        200,
        link ? { link } : undefined,
      );
    }),
    route('GET', '/user', (ctx) => {
      if (ctx.auth.kind === 'installation') {
        // GitHub: installation tokens cannot read /user.
        throw new HttpError(403, 'Resource not accessible by integration');
      }
      if (ctx.auth.kind !== 'user') throw new HttpError(401, 'Requires authentication');
      return ok(p.user(ctx.auth.login));
    }),
    // GitHub App user tokens only: the installations of this app, and their repositories,
    // that the user has explicit access to (owner, member or collaborator).
    route('GET', '/user/installations', (ctx) => {
      const login = appUser(ctx);
      const installations = [...state.installations.values()].filter((i) =>
        state.reposOf(i.id).some((repo) => reaches(login, repo)),
      );
      const { items, link } = paginate(installations, ctx.query, `${deps.apiUrl()}${ctx.path}`);
      return ok(
        { total_count: installations.length, installations: items.map(p.installation) },
        200,
        link ? { link } : undefined,
      );
    }),
    route('GET', '/user/installations/:id/repositories', (ctx) => {
      const login = appUser(ctx);
      const installation = state.installations.get(Number(ctx.params.id));
      const repos = installation
        ? state.reposOf(installation.id).filter((repo) => reaches(login, repo))
        : [];
      // GitHub answers 404 for an installation the user cannot reach at all.
      if (repos.length === 0) throw new HttpError(404, 'Not Found');
      const { items, link } = paginate(repos, ctx.query, `${deps.apiUrl()}${ctx.path}`);
      return ok(
        {
          total_count: repos.length,
          repository_selection: 'selected',
          repositories: items.map(p.repository),
        },
        200,
        link ? { link } : undefined,
      );
    }),
    route('GET', '/users/:login', (ctx) => {
      if (!state.users.has(ctx.params.login!.toLowerCase())) throw new HttpError(404, 'Not Found');
      return ok(p.user(ctx.params.login!));
    }),
    route('GET', '/rate_limit', () => {
      const core = { limit: 5000, remaining: 4999, reset: 0, used: 1, resource: 'core' };
      return ok({ resources: { core }, rate: core });
    }),

    // ---- repositories ------------------------------------------------------------------
    route('GET', '/repos/:owner/:repo', (ctx) => ok(p.repository(repoOf(ctx)))),
    route('GET', '/repos/:owner/:repo/contents/*path', (ctx) => {
      const repo = repoOf(ctx);
      const path = ctx.params.path!.replace(/^\/+|\/+$/g, '');
      const content = repo.files.get(path);
      const base = `${deps.apiUrl()}/repos/${repo.fullName}/contents`;
      if (content === undefined) {
        const children = [...repo.files.keys()].filter((f) => f.startsWith(`${path}/`));
        if (children.length === 0) throw new HttpError(404, 'Not Found');
        // A directory: GitHub lists its entries as JSON (Probot's config reader rejects it).
        const names = [...new Set(children.map((f) => f.slice(path.length + 1).split('/')[0]))];
        return ok(
          names.map((name) => ({
            type: repo.files.has(`${path}/${name}`) ? 'file' : 'dir',
            name,
            path: `${path}/${name}`,
            url: `${base}/${path}/${name}`,
          })),
        );
      }
      const accept = String(ctx.headers.accept ?? '');
      if (/application\/vnd\.github(\.v3)?\.raw/.test(accept)) {
        return {
          status: 200,
          raw: content,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        };
      }
      const encoded = Buffer.from(content, 'utf8').toString('base64');
      const sha = gitBlobSha(content);
      const htmlUrl = `${deps.apiUrl().replace(/\/api\/v3$/, '')}/${repo.fullName}/blob/main/${path}`;
      return ok({
        type: 'file',
        encoding: 'base64',
        size: Buffer.byteLength(content),
        name: path.split('/').pop(),
        path,
        // GitHub wraps base64 content at 60 characters.
        content: `${encoded.replace(/(.{60})/g, '$1\n')}\n`,
        sha,
        url: `${base}/${path}?ref=main`,
        git_url: `${deps.apiUrl()}/repos/${repo.fullName}/git/blobs/${sha}`,
        html_url: htmlUrl,
        download_url: htmlUrl.replace('/blob/', '/raw/'),
        _links: { self: `${base}/${path}?ref=main`, git: null, html: htmlUrl },
      });
    }),

    // ---- issues ------------------------------------------------------------------------
    route('GET', '/repos/:owner/:repo/issues', (ctx) => {
      const repo = repoOf(ctx);
      const state_ = ctx.query.get('state') ?? 'open';
      const wanted = (ctx.query.get('labels') ?? '')
        .split(',')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean);
      const since = sinceParam(ctx.query);
      const sort = ctx.query.get('sort') ?? 'created';
      const desc = (ctx.query.get('direction') ?? 'desc') === 'desc';
      const key = (i: IssueRecord): number | string =>
        sort === 'updated' ? i.updatedAt : sort === 'comments' ? i.commentIds.length : i.number;
      const issues = [...repo.issues.values()]
        .filter((i) => i.fate === null)
        .filter((i) => state_ === 'all' || i.state === state_)
        .filter((i) => wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w)))
        .filter((i) => since === undefined || Date.parse(i.updatedAt) >= since)
        .sort((a, b) => {
          const [x, y] = [key(a), key(b)];
          const order = x < y ? -1 : x > y ? 1 : a.number - b.number;
          return desc ? -order : order;
        });
      return page(ctx, issues, p.issue);
    }),
    route('GET', '/repos/:owner/:repo/issues/:number', (ctx) => ok(p.issue(issueOf(ctx).issue))),
    route('PATCH', '/repos/:owner/:repo/issues/:number', (ctx) => {
      const { repo, issue } = issueOf(ctx, true);
      const body = asObject(ctx.body);
      const state_ = body.state;
      if (state_ !== undefined && state_ !== 'open' && state_ !== 'closed') {
        throw validationFailed('Issue', 'state', 'invalid');
      }
      const reason = body.state_reason;
      if (
        reason !== undefined &&
        reason !== null &&
        reason !== 'completed' &&
        reason !== 'not_planned' &&
        reason !== 'reopened'
      ) {
        throw validationFailed('Issue', 'state_reason', 'invalid');
      }
      const body_ = body.body;
      state.updateIssue(
        repo,
        issue,
        {
          state: state_,
          stateReason: reason,
          title: optionalString(body, 'title', 'Issue'),
          body: body_ === null ? null : optionalString(body, 'body', 'Issue'),
          labels: body.labels === undefined ? undefined : labelsBody(body),
          assignees:
            body.assignees === undefined
              ? undefined
              : stringList(body.assignees, 'Issue', 'assignees'),
        },
        actor(ctx),
      );
      return ok(p.issue(issue));
    }),

    // ---- comments ----------------------------------------------------------------------
    route('GET', '/repos/:owner/:repo/issues/comments', (ctx) => {
      const repo = repoOf(ctx);
      const since = sinceParam(ctx.query);
      const sort = ctx.query.get('sort');
      // GitHub: `direction` is ignored without `sort`; without either, oldest first.
      const desc = sort !== null && (ctx.query.get('direction') ?? 'desc') === 'desc';
      const comments = [...state.comments.values()]
        .filter((c) => c.repo === repo.fullName)
        .filter((c) => since === undefined || Date.parse(c.updatedAt) >= since)
        .sort((a, b) => {
          const order =
            sort === 'updated'
              ? Date.parse(a.updatedAt) - Date.parse(b.updatedAt) || a.id - b.id
              : a.id - b.id;
          return desc ? -order : order;
        });
      return page(ctx, comments, p.comment);
    }),
    route('GET', '/repos/:owner/:repo/issues/comments/:id', (ctx) => ok(p.comment(commentOf(ctx)))),
    route('PATCH', '/repos/:owner/:repo/issues/comments/:id', (ctx) => {
      const comment = commentOf(ctx, true);
      state.editComment(comment, commentBody(ctx.body), actor(ctx));
      return ok(p.comment(comment));
    }),
    route('DELETE', '/repos/:owner/:repo/issues/comments/:id', (ctx) => {
      state.deleteComment(commentOf(ctx, true), actor(ctx));
      return { status: 204 };
    }),
    route('GET', '/repos/:owner/:repo/issues/:number/comments', (ctx) => {
      const { issue } = issueOf(ctx);
      const since = sinceParam(ctx.query);
      const comments = issue.commentIds
        .map((id) => state.comments.get(id)!)
        .filter((c) => since === undefined || Date.parse(c.updatedAt) >= since);
      return page(ctx, comments, p.comment);
    }),
    route('POST', '/repos/:owner/:repo/issues/:number/comments', (ctx) => {
      const { repo, issue } = issueOf(ctx, true);
      const comment = state.addComment(repo, issue, {
        author: actor(ctx),
        body: commentBody(ctx.body),
        viaApp: ctx.auth.kind === 'installation',
      });
      const json = p.comment(comment);
      return ok(json, 201, { location: String(json.url) });
    }),

    // ---- labels ------------------------------------------------------------------------
    route('GET', '/repos/:owner/:repo/labels', (ctx) => {
      const repo = repoOf(ctx);
      return page(ctx, [...repo.labels.values()], (l) => p.label(repo, l));
    }),
    route('GET', '/repos/:owner/:repo/labels/:name', (ctx) => {
      const repo = repoOf(ctx);
      const label = state.findLabel(repo, ctx.params.name!);
      if (!label) throw new HttpError(404, 'Not Found');
      return ok(p.label(repo, label));
    }),
    route('POST', '/repos/:owner/:repo/labels', (ctx) => {
      const repo = repoOf(ctx, true);
      const body = asObject(ctx.body);
      const name = optionalString(body, 'name', 'Label');
      if (name === undefined) throw validationFailed('Label', 'name', 'missing_field');
      const description = body.description;
      const label = state.createLabel(repo, {
        name,
        color: optionalString(body, 'color', 'Label'),
        description: typeof description === 'string' ? description : null,
      });
      return ok(p.label(repo, label), 201);
    }),
    route('DELETE', '/repos/:owner/:repo/labels/:name', (ctx) => {
      state.deleteLabel(repoOf(ctx, true), ctx.params.name!);
      return { status: 204 };
    }),
    route('GET', '/repos/:owner/:repo/issues/:number/labels', (ctx) => {
      const { repo, issue } = issueOf(ctx);
      return page(ctx, issue.labels, (name) => p.label(repo, state.findLabel(repo, name)!));
    }),
    route('POST', '/repos/:owner/:repo/issues/:number/labels', (ctx) => {
      const { repo, issue } = issueOf(ctx, true);
      state.addLabels(repo, issue, labelsBody(ctx.body), actor(ctx));
      return ok(issue.labels.map((name) => p.label(repo, state.findLabel(repo, name)!)));
    }),
    route('PUT', '/repos/:owner/:repo/issues/:number/labels', (ctx) => {
      const { repo, issue } = issueOf(ctx, true);
      state.setLabels(repo, issue, labelsBody(ctx.body), actor(ctx));
      return ok(issue.labels.map((name) => p.label(repo, state.findLabel(repo, name)!)));
    }),
    route('DELETE', '/repos/:owner/:repo/issues/:number/labels', (ctx) => {
      const { repo, issue } = issueOf(ctx, true);
      state.setLabels(repo, issue, [], actor(ctx));
      return { status: 204 };
    }),
    route('DELETE', '/repos/:owner/:repo/issues/:number/labels/:name', (ctx) => {
      const { repo, issue } = issueOf(ctx, true);
      state.removeLabel(repo, issue, ctx.params.name!, actor(ctx));
      return ok(issue.labels.map((name) => p.label(repo, state.findLabel(repo, name)!)));
    }),

    // ---- collaborators -----------------------------------------------------------------
    route('GET', '/repos/:owner/:repo/collaborators/:login/permission', (ctx) => {
      const repo = repoOf(ctx);
      const login = ctx.params.login!;
      if (!state.users.has(login.toLowerCase())) throw new HttpError(404, 'Not Found');
      const role = state.roleOf(repo, login);
      // GitHub's older `permission` reports maintain as write and triage as read; a custom
      // role shows its base (the fake: write).
      const legacy: Record<string, string> = {
        admin: 'admin',
        maintain: 'write',
        write: 'write',
        triage: 'read',
        read: 'read',
        none: 'none',
      };
      return ok({ permission: legacy[role] ?? 'write', role_name: role, user: p.user(login) });
    }),

    // ---- assignees ---------------------------------------------------------------------
    route('GET', '/repos/:owner/:repo/assignees/:login', (ctx) => {
      const repo = repoOf(ctx);
      const login = ctx.params.login!;
      if (!state.users.has(login.toLowerCase()) || !state.assignable(repo, login)) {
        throw new HttpError(404, 'Not Found');
      }
      return { status: 204 };
    }),
    route('GET', '/repos/:owner/:repo/issues/:number/assignees/:login', (ctx) => {
      const { repo, issue } = issueOf(ctx);
      const login = ctx.params.login!;
      if (!state.users.has(login.toLowerCase()) || !state.assignable(repo, login, issue)) {
        throw new HttpError(404, 'Not Found');
      }
      return { status: 204 };
    }),
    route('POST', '/repos/:owner/:repo/issues/:number/assignees', (ctx) => {
      const { repo, issue } = issueOf(ctx, true);
      const logins = stringList(asObject(ctx.body).assignees ?? [], 'Issue', 'assignees');
      state.addAssignees(repo, issue, logins, actor(ctx));
      return ok(p.issue(issue), 201);
    }),
    route('DELETE', '/repos/:owner/:repo/issues/:number/assignees', (ctx) => {
      const { issue } = issueOf(ctx, true);
      const logins = stringList(asObject(ctx.body).assignees ?? [], 'Issue', 'assignees');
      state.removeAssignees(issue, logins, actor(ctx));
      return ok(p.issue(issue));
    }),

    // ---- timeline, reactions, organisation members (docs/protocol.md §16) ----------------
    ...peopleRoutes(deps, { repoOf, issueOf: (ctx) => issueOf(ctx), commentOf, actor, page }),
  ];
}
