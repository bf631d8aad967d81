/**
 * Pull requests, pushes and check runs for the GitHub fake (docs/protocol.md §11): the model,
 * the REST endpoints (`pulls/{n}`, `pulls/{n}/files`, `check-runs`, `commits/{ref}/check-runs`)
 * and the `pull_request` and `push` webhook payloads. Kept apart from `state.ts`, which models
 * issues: a pull request here is an issue record (`isPullRequest`) plus its head, base and files.
 */
import { createHash } from 'node:crypto';
import type { AppIdentity, Payloads, WebhookEvent } from './payloads.js';
import { paginate, type Reply, type Route, type RouteContext, route } from './router.js';
import { HttpError, type IssueRecord, type RepoRecord, type State } from './state.js';

/** GitHub lists at most this many files of a pull request ("List pull requests files"). */
export const MAX_PULL_FILES = 3000;

/** The head or base of a pull request. */
export interface PullEnd {
  readonly ref: string;
  sha: string;
  /** `owner/name` of the repository the branch lives in (a fork for a fork's pull request). */
  readonly repo: string;
}

/** A pull request: its issue record, head, base and changed files. */
export interface PullRecord {
  readonly issue: IssueRecord;
  readonly head: PullEnd;
  readonly base: PullEnd;
  /** Changed files at the head, in GitHub's order (by path). */
  files: string[];
}

/** A check run as the fake keeps it. */
export interface CheckRunRecord {
  readonly id: number;
  readonly repo: string;
  readonly headSha: string;
  readonly name: string;
  /** The app that created it: only it may update it. */
  readonly appId: number;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  readonly startedAt: string;
  completedAt: string | null;
}

/** What one push changes, as the push webhook reports it. */
export interface PushInput {
  /** The branch pushed to, without `refs/heads/`. */
  readonly branch: string;
  /** The account that pushed (`sender`; `pusher.name`). */
  readonly pusher: string;
  /** Paths each commit added or modified (default: one commit changing `README.md`). */
  readonly commits?: ReadonlyArray<{ readonly modified: readonly string[] }>;
  /** Push time; default the fake's clock. */
  readonly at?: Date;
}

/** The pull requests, commits and check runs of every repository. */
export class PullsModel {
  readonly pulls = new Map<string, PullRecord>();
  readonly checkRuns = new Map<number, CheckRunRecord>();
  /** `owner/name` (lower case) -> commit SHAs that exist there. */
  readonly commits = new Map<string, Set<string>>();
  #nextCheckRunId = 1;
  #shaCount = 0;

  pull(repo: string, number: number): PullRecord | undefined {
    return this.pulls.get(`${repo.toLowerCase()}#${number}`);
  }

  addPull(record: PullRecord): void {
    this.pulls.set(`${record.issue.repo.toLowerCase()}#${record.issue.number}`, record);
    this.addCommit(record.head.repo, record.head.sha);
    this.addCommit(record.base.repo, record.base.sha);
    // GitHub knows a fork's head commit in the base repository too (refs/pull/N/head).
    this.addCommit(record.base.repo, record.head.sha);
  }

  /** A fresh 40-hex commit SHA. */
  newSha(): string {
    return createHash('sha1')
      .update(`commit ${++this.#shaCount}`)
      .digest('hex');
  }

  addCommit(repo: string, sha: string): void {
    const key = repo.toLowerCase();
    const set = this.commits.get(key) ?? new Set<string>();
    set.add(sha);
    this.commits.set(key, set);
  }

  hasCommit(repo: string, ref: string): boolean {
    return this.commits.get(repo.toLowerCase())?.has(ref) ?? false;
  }

  createCheckRun(input: Omit<CheckRunRecord, 'id'>): CheckRunRecord {
    const record = { ...input, id: this.#nextCheckRunId++ };
    this.checkRuns.set(record.id, record);
    return record;
  }
}

/** What the pull and check-run endpoints need from the server. */
export interface PullRouteDeps {
  readonly state: State;
  readonly pulls: PullsModel;
  readonly payloads: Payloads;
  readonly app: AppIdentity;
  readonly apiUrl: () => string;
  readonly htmlUrl: () => string;
}

type Json = Record<string, unknown>;

function asObject(body: unknown): Json {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : {};
}

/** Renders a pull request as GitHub does (the fields a client reads; not every one). */
export function pullJson(deps: PullRouteDeps, pull: PullRecord): Json {
  const { payloads: p } = deps;
  const repoUrl = `${deps.apiUrl()}/repos/${pull.issue.repo}`;
  const html = `${deps.htmlUrl()}/${pull.issue.repo}/pull/${pull.issue.number}`;
  const end = (e: PullEnd): Json => {
    const repo = deps.state.repo(e.repo);
    return {
      label: `${repo.owner}:${e.ref}`,
      ref: e.ref,
      sha: e.sha,
      user: p.user(repo.owner),
      repo: p.repository(repo),
    };
  };
  return {
    url: `${repoUrl}/pulls/${pull.issue.number}`,
    id: pull.issue.id,
    html_url: html,
    diff_url: `${html}.diff`,
    issue_url: `${repoUrl}/issues/${pull.issue.number}`,
    number: pull.issue.number,
    state: pull.issue.state,
    locked: false,
    title: pull.issue.title,
    user: p.user(pull.issue.author),
    body: pull.issue.body,
    created_at: pull.issue.createdAt,
    updated_at: pull.issue.updatedAt,
    closed_at: pull.issue.closedAt,
    merged_at: null,
    draft: false,
    head: end(pull.head),
    base: end(pull.base),
    author_association: deps.state.association(pull.issue.author, pull.issue.repo),
    merged: false,
    changed_files: pull.files.length,
  };
}

function checkRunJson(deps: PullRouteDeps, run: CheckRunRecord): Json {
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: `CR_${run.id}`,
    external_id: '',
    url: `${deps.apiUrl()}/repos/${run.repo}/check-runs/${run.id}`,
    html_url: `${deps.htmlUrl()}/${run.repo}/runs/${run.id}`,
    details_url: null,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: { ...run.output, annotations_count: 0, annotations_url: '' },
    name: run.name,
    check_suite: { id: run.id },
    app: deps.payloads.app(),
    pull_requests: [],
  };
}

const STATUSES = new Set(['queued', 'in_progress', 'completed']);

/** The pull request and check-run endpoints. */
export function pullRoutes(deps: PullRouteDeps): Route[] {
  const { state, pulls } = deps;

  /** As routes.ts: 404 for what the caller may not see, 403 for what it may not change. */
  function repoOf(ctx: RouteContext, write = false): RepoRecord {
    const repo = state.findRepo(`${ctx.params.owner}/${ctx.params.repo}`);
    if (!repo) throw new HttpError(404, 'Not Found');
    if (ctx.auth.kind === 'installation' && repo.installationId !== ctx.auth.installationId) {
      if (repo.private) throw new HttpError(404, 'Not Found');
      if (write) throw new HttpError(403, 'Resource not accessible by integration');
    }
    if (ctx.auth.kind === 'anonymous' && repo.private) throw new HttpError(404, 'Not Found');
    // GitHub: only GitHub Apps write check runs.
    if (write && ctx.auth.kind !== 'installation') {
      throw new HttpError(403, 'You must authenticate via a GitHub App.');
    }
    return repo;
  }

  function pullOf(ctx: RouteContext): PullRecord {
    const repo = repoOf(ctx);
    const pull = pulls.pull(repo.fullName, Number(ctx.params.number));
    if (!pull) throw new HttpError(404, 'Not Found');
    return pull;
  }

  /** Applies `status`, `conclusion` and `output` of a create or update body. */
  function apply(run: CheckRunRecord, body: Json): void {
    const status = body.status;
    if (status !== undefined) {
      if (typeof status !== 'string' || !STATUSES.has(status)) {
        throw new HttpError(422, 'Validation Failed');
      }
      run.status = status as CheckRunRecord['status'];
    }
    if (typeof body.conclusion === 'string') {
      // GitHub: providing a conclusion sets the status to completed.
      run.conclusion = body.conclusion;
      run.status = 'completed';
      run.completedAt = state.timestamp();
    }
    const output = asObject(body.output);
    if (body.output !== undefined) {
      run.output = {
        title: typeof output.title === 'string' ? output.title : null,
        summary: typeof output.summary === 'string' ? output.summary : null,
        text: typeof output.text === 'string' ? output.text : null,
      };
    }
    if (run.status === 'completed' && run.conclusion === null) {
      throw new HttpError(422, 'Validation Failed', {
        errors: [{ resource: 'CheckRun', code: 'missing_field', field: 'conclusion' }],
      });
    }
  }

  return [
    route('GET', '/repos/:owner/:repo/pulls/:number', (ctx) => ok(pullJson(deps, pullOf(ctx)))),
    route('GET', '/repos/:owner/:repo/pulls/:number/files', (ctx) => {
      const pull = pullOf(ctx);
      const listed = pull.files.slice(0, MAX_PULL_FILES);
      const { items, link } = paginate(listed, ctx.query, `${deps.apiUrl()}${ctx.path}`);
      const body = items.map((filename) => ({
        sha: createHash('sha1').update(filename).digest('hex'),
        filename,
        status: 'modified',
        additions: 1,
        deletions: 0,
        changes: 1,
        blob_url: `${deps.htmlUrl()}/${pull.issue.repo}/blob/${pull.head.sha}/${filename}`,
        raw_url: `${deps.htmlUrl()}/${pull.issue.repo}/raw/${pull.head.sha}/${filename}`,
        contents_url: `${deps.apiUrl()}/repos/${pull.issue.repo}/contents/${filename}?ref=${pull.head.sha}`,
        patch: '@@ -1 +1 @@',
      }));
      return { status: 200, body, ...(link ? { headers: { link } } : {}) };
    }),
    route('POST', '/repos/:owner/:repo/check-runs', (ctx) => {
      const repo = repoOf(ctx, true);
      const body = asObject(ctx.body);
      const headSha = String(body.head_sha);
      if (!pulls.hasCommit(repo.fullName, headSha)) {
        throw new HttpError(422, `No commit found for SHA: ${headSha}`);
      }
      const run = pulls.createCheckRun({
        repo: repo.fullName,
        headSha,
        name: String(body.name),
        appId: deps.app.id,
        status: 'queued',
        conclusion: null,
        output: { title: null, summary: null, text: null },
        startedAt: state.timestamp(),
        completedAt: null,
      });
      apply(run, body);
      return ok(checkRunJson(deps, run), 201);
    }),
    route('PATCH', '/repos/:owner/:repo/check-runs/:id', (ctx) => {
      const repo = repoOf(ctx, true);
      const run = pulls.checkRuns.get(Number(ctx.params.id));
      if (!run || run.repo.toLowerCase() !== repo.fullName.toLowerCase()) {
        throw new HttpError(404, 'Not Found');
      }
      if (run.appId !== deps.app.id) throw new HttpError(403, 'Invalid app_id');
      apply(run, asObject(ctx.body));
      return ok(checkRunJson(deps, run));
    }),
    route('GET', '/repos/:owner/:repo/commits/:ref/check-runs', (ctx) => {
      const repo = repoOf(ctx);
      const ref = ctx.params.ref!;
      if (!pulls.hasCommit(repo.fullName, ref)) {
        throw new HttpError(422, `No commit found for SHA: ${ref}`);
      }
      const name = ctx.query.get('check_name');
      const runs = [...pulls.checkRuns.values()]
        .filter((r) => r.repo.toLowerCase() === repo.fullName.toLowerCase())
        .filter((r) => r.headSha === ref && (name === null || r.name === name))
        .sort((a, b) => b.id - a.id);
      // `filter=latest` (the default): the most recent run of each name.
      const latest = (ctx.query.get('filter') ?? 'latest') === 'latest';
      const seen = new Set<string>();
      const shown = latest
        ? runs.filter((r) => !seen.has(r.name) && seen.add(r.name) !== undefined)
        : runs;
      const { items, link } = paginate(shown, ctx.query, `${deps.apiUrl()}${ctx.path}`);
      return {
        status: 200,
        body: { total_count: shown.length, check_runs: items.map((r) => checkRunJson(deps, r)) },
        ...(link ? { headers: { link } } : {}),
      };
    }),
  ];
}

function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

/** Fields every repository-scoped delivery carries (as payloads.ts renders them). */
function envelope(deps: PullRouteDeps, repo: RepoRecord, actor: string): Json {
  return {
    repository: deps.payloads.repository(repo),
    sender: deps.payloads.user(actor),
    installation: {
      id: repo.installationId,
      node_id: Buffer.from(`023:IntegrationInstallation${repo.installationId}`).toString('base64'),
    },
  };
}

/** The `pull_request` delivery GitHub sends for `action`, or undefined when not installed. */
export function pullRequestEvent(
  deps: PullRouteDeps,
  pull: PullRecord,
  action: 'opened' | 'reopened' | 'synchronize' | 'edited' | 'closed',
  actor: string,
  extra: Json = {},
): WebhookEvent | undefined {
  const repo = deps.state.repo(pull.issue.repo);
  if (repo.installationId === null) return undefined;
  return {
    event: 'pull_request',
    action,
    payload: {
      action,
      number: pull.issue.number,
      pull_request: pullJson(deps, pull),
      ...extra,
      ...envelope(deps, repo, actor),
    },
  };
}

/** The `push` delivery GitHub sends (it has no `action`), or undefined when not installed. */
export function pushEvent(
  deps: PullRouteDeps,
  repo: RepoRecord,
  push: { before: string; after: string; branch: string; pusher: string; at: Date },
  commits: ReadonlyArray<{ readonly id: string; readonly modified: readonly string[] }>,
): WebhookEvent | undefined {
  if (repo.installationId === null) return undefined;
  const timestamp = push.at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const commitJson = commits.map((c) => ({
    id: c.id,
    tree_id: c.id,
    distinct: true,
    message: 'work',
    timestamp,
    url: `${deps.htmlUrl()}/${repo.fullName}/commit/${c.id}`,
    author: { name: push.pusher, email: `${push.pusher}@example.com`, username: push.pusher },
    committer: { name: push.pusher, email: `${push.pusher}@example.com`, username: push.pusher },
    added: [],
    removed: [],
    modified: [...c.modified],
  }));
  const envelopeJson = envelope(deps, repo, push.pusher);
  // Push deliveries render `pushed_at` (and `created_at`) as Unix seconds, unlike the REST API.
  const repository = {
    ...(envelopeJson.repository as Json),
    pushed_at: Math.floor(push.at.getTime() / 1000),
    master_branch: 'main',
  };
  return {
    event: 'push',
    action: '',
    payload: {
      ref: `refs/heads/${push.branch}`,
      before: push.before,
      after: push.after,
      created: false,
      deleted: false,
      forced: false,
      base_ref: null,
      compare: `${deps.htmlUrl()}/${repo.fullName}/compare/${push.before.slice(0, 12)}...${push.after.slice(0, 12)}`,
      commits: commitJson,
      head_commit: commitJson.at(-1) ?? null,
      pusher: { name: push.pusher, email: `${push.pusher}@example.com` },
      ...envelopeJson,
      repository,
    },
  };
}
