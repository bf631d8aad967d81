/**
 * An in-memory HTTP fake of the GitHub REST API (GitHub Enterprise layout: everything under
 * `/api/v3`), for end-to-end tests, client tests, benchmarks and the sandbox demo. Test code
 * only: never shipped.
 *
 *     const fake = await startFakeGitHub({ webhook: { url, secret } });
 *     fake.addInstallation({ id: 1, account: 'acme', repos: ['acme/widgets'] });
 *     const n = fake.createIssue('acme/widgets', { title: 'Fix it' });
 *     // run the app with GHE_HOST=fake.host GHE_PROTOCOL=http
 */
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { BranchesModel, branchRoutes } from './branches.js';
import { hookRoutes } from './hook-routes.js';
import { FakeOAuth, type OAuthClient } from './oauth.js';
import { validateRequest } from './openapi.js';
import {
  type AppIdentity,
  type CommentJson,
  createPayloads,
  type LabelJson,
  type Payloads,
} from './payloads.js';
import {
  crossReference,
  newReactionId,
  type ReactionRecord,
  recordTimeline,
  type TimelineRecord,
} from './people.js';
import {
  type CheckRunRecord,
  type PullRecord,
  type PullRouteDeps,
  PullsModel,
  type PushInput,
  pullRequestEvent,
  pullRoutes,
  pushEvent,
} from './pulls.js';
import { type Auth, matchRoute, type Reply, type Route } from './router.js';
import { routes } from './routes.js';
import {
  type Association,
  type Change,
  HttpError,
  type InstallationRecord,
  isoSeconds,
  type NewIssue,
  State,
  type UserType,
} from './state.js';
import {
  type HookAttempt,
  sendWebhook,
  signWebhook,
  type WebhookDelivery,
  WebhookOutbox,
  type WebhookTarget,
} from './webhooks.js';

export type { OAuthClient } from './oauth.js';
export type { CommentJson, IssueJson, LabelJson, UserJson } from './payloads.js';
export type { ReactionRecord, TimelineRecord } from './people.js';
export type { CheckRunRecord, PullRecord, PushInput } from './pulls.js';
export type { Association, UserType } from './state.js';
export type { HookAttempt, WebhookDelivery, WebhookTarget } from './webhooks.js';
export { sendWebhook, signWebhook };

/** Options of `startFakeGitHub`. */
export interface FakeGitHubOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  /** The app's id (default 1). */
  readonly appId?: number;
  /** The app's slug (default `claim-warden`); its bot account is `<slug>[bot]`. */
  readonly appSlug?: string;
  /** Where state changes are delivered as webhooks; see `setWebhookTarget`. */
  readonly webhook?: WebhookTarget;
  /** The server's clock for `created_at`/`updated_at` (default: real time). */
  readonly clock?: () => Date;
  /**
   * Apply GitHub's assignability rule (default true): bots and people without write
   * access who have not commented on the issue are dropped silently from assignments.
   */
  readonly checkAssignable?: boolean;
  /** The app's OAuth client secret for the web flow (default `fake-oauth-client-secret`). */
  readonly oauthClientSecret?: string;
  /** Receives delivery failures and handler crashes (default `console.warn`). */
  readonly log?: (message: string, meta: Record<string, unknown>) => void;
}

/** One request the fake answered. `path` has no `/api/v3` prefix and no query. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly status: number;
  /** Login of the caller, `app-jwt` for the app's JWT, `anonymous` without credentials. */
  readonly actor: string;
  readonly at: Date;
}

/** A request GitHub would have refused: answered 404 or 422, and kept for `assertValid`. */
export interface InvalidRequest {
  readonly method: string;
  /** No `/api/v3` prefix; the query as sent. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly status: 404 | 422;
  /** What GitHub's REST description says is wrong, e.g. `body.labels wasn’t supplied`. */
  readonly problems: readonly string[];
}

/**
 * A failure (or delay) for matching requests, applied before normal handling. With `status`
 * the request is answered with it (and `headers`, `body`); without, it is handled normally
 * after `delayMs`, with `headers` added to the answer.
 */
export interface InjectionSpec {
  readonly method?: string;
  /** A string matches the path exactly (no `/api/v3`, no query); a RegExp is tested on it. */
  readonly path: RegExp | string;
  readonly status?: number;
  /** How many requests it applies to (default 1; `Infinity` for all). */
  readonly times?: number;
  readonly delayMs?: number;
  /**
   * Holds each matching request until the promise it returns settles (after `delayMs`), then
   * answers as the rest of the spec says: a test decides when GitHub answers, no clock needed.
   */
  readonly hold?: () => Promise<unknown>;
  /** Only requests made by this login (as `RecordedRequest.actor` names it) match. */
  readonly actor?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** A live injection; `hits` counts the requests it applied to. */
export interface Injection extends InjectionSpec {
  hits: number;
  remaining: number;
}

/** A snapshot of an issue, as tests want to assert on it. */
export interface IssueSnapshot {
  readonly number: number;
  readonly title: string;
  readonly body: string | null;
  readonly state: 'open' | 'closed';
  readonly state_reason: 'completed' | 'not_planned' | 'reopened' | null;
  readonly labels: string[];
  readonly assignees: string[];
  readonly isPullRequest: boolean;
  readonly comments: number;
  readonly author: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly closed_at: string | null;
}

type TimeInput = Date | string;

const DOCS = 'https://docs.github.com/rest';

function toIso(time: TimeInput | undefined): string | undefined {
  if (time === undefined) return undefined;
  return isoSeconds(typeof time === 'string' ? new Date(time) : time);
}

/** Reads a request body to the end. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The default message GitHub sends with an error status, as octokit's plugins read it. */
function defaultErrorMessage(status: number, headers: Readonly<Record<string, string>>): string {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  if ((status === 403 || status === 429) && lower['x-ratelimit-remaining'] === '0') {
    return 'API rate limit exceeded for installation.';
  }
  if (status === 403 || status === 429) {
    // octokit's throttling plugin recognises a secondary limit by the words "secondary rate".
    return 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
  }
  return STATUS_CODES[status] ?? 'Error';
}

/** The fake: a node:http server over a `State`, with seeding helpers and a request log. */
export class FakeGitHub {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `${url}/api/v3`: octokit's baseUrl with `GHE_HOST` set to `host`. */
  readonly apiUrl: string;
  /** `127.0.0.1:<port>`, for `GHE_HOST`. */
  readonly host: string;
  /** The app's bot account, which installation tokens act as. */
  readonly botLogin: string;
  /** The app's identity (`GET /app`). */
  readonly app: AppIdentity;
  /** The model, for tests that need what the helpers do not offer. */
  readonly state: State;
  /** Every request answered, in order. */
  readonly requests: RecordedRequest[] = [];
  /**
   * Every API request that GitHub's REST description refuses (see `openapi.ts`), in order.
   * The e2e harness fails a test that leaves one here (`assertValid`).
   */
  readonly invalidRequests: InvalidRequest[] = [];
  /**
   * GitHub's OAuth web flow on the web host (`url`, no `/api/v3`): the app's client id and
   * secret are `oauth.client` (set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET to them).
   */
  readonly oauth: FakeOAuth;
  /** The server clock; replace it to control `created_at`/`updated_at`. */
  clock: () => Date;

  private readonly payloads: Payloads;
  private readonly routes: Route[];
  /** Pull requests, commits and check runs (docs/protocol.md §11). */
  readonly pulls = new PullsModel();
  readonly branches = new BranchesModel();
  private readonly pullDeps: PullRouteDeps;
  private readonly outbox: WebhookOutbox;
  private readonly tokens = new Map<string, Auth>();
  private readonly manifests = new Map<string, Record<string, unknown>>();
  private readonly userTokens = new Map<string, string>();
  private injections: Injection[] = [];
  private tokenCount = 0;
  private readonly log: (message: string, meta: Record<string, unknown>) => void;

  /** Use `startFakeGitHub`. */
  constructor(
    private readonly server: Server,
    options: FakeGitHubOptions,
  ) {
    const { port } = server.address() as AddressInfo;
    this.host = `127.0.0.1:${port}`;
    this.url = `http://${this.host}`;
    this.apiUrl = `${this.url}/api/v3`;
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log ?? ((message, meta) => console.warn(message, meta));
    const slug = options.appSlug ?? 'claim-warden';
    this.app = { id: options.appId ?? 1, slug, name: slug, owner: 'claim-warden-owner' };
    this.botLogin = `${slug}[bot]`;
    this.state = new State(
      () => this.clock(),
      (change) => this.onChange(change),
    );
    this.state.checkAssignable = options.checkAssignable ?? true;
    this.state.addUser(this.botLogin, { type: 'Bot' });
    this.state.addUser(this.app.owner, { type: 'Organization' });
    this.payloads = createPayloads(
      this.state,
      { apiUrl: this.apiUrl, htmlUrl: this.url },
      this.app,
    );
    this.oauth = new FakeOAuth(
      this.state,
      {
        clientId: `Iv1.${this.app.id.toString(16).padStart(16, '0')}`,
        clientSecret: options.oauthClientSecret ?? 'fake-oauth-client-secret',
      } satisfies OAuthClient,
      this.app.name,
      () => this.clock(),
      (login) => this.userAccessToken(login),
      (token) => this.forgetUserAccessToken(token),
    );
    this.outbox = new WebhookOutbox({
      appId: this.app.id,
      log: this.log,
      clock: () => this.clock(),
    });
    this.outbox.setTarget(options.webhook);
    this.routes = [
      ...routes({
        state: this.state,
        payloads: this.payloads,
        app: this.app,
        apiUrl: () => this.apiUrl,
        mintInstallationToken: (id) => this.mintInstallationToken(id),
        convertManifest: (code) => this.convertManifest(code),
      }),
      ...this.oauth.routes(),
      ...hookRoutes({
        apiUrl: () => this.apiUrl,
        attempts: () => this.outbox.attempts,
        redeliver: (id) => this.outbox.redeliver(id),
      }),
    ];
    this.pullDeps = {
      state: this.state,
      pulls: this.pulls,
      payloads: this.payloads,
      app: this.app,
      apiUrl: () => this.apiUrl,
      htmlUrl: () => this.url,
    };
    this.routes.push(...pullRoutes(this.pullDeps));
    this.routes.push(...branchRoutes(this.pullDeps, this.branches));
    server.on('request', (req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.log('fake-github: request failed', { error: String(error) });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
  }

  // ---- seeding -------------------------------------------------------------------------

  /** Installs the app on `account` with the given repositories (created when missing). */
  addInstallation(options: {
    id: number;
    account: string;
    accountType?: 'Organization' | 'User';
    repos?: readonly string[];
  }): InstallationRecord {
    return this.state.addInstallation(options);
  }

  /** Adds a repository; it joins its owner's installation unless `installationId` says. */
  addRepo(fullName: string, options: { installationId?: number | null; private?: boolean } = {}) {
    this.state.addRepo(fullName, options);
  }

  /**
   * Adds or updates a user: `association` is its `author_association` everywhere (default
   * `NONE`), `repos` overrides it per `owner/name`; `type: 'Bot'` for `x[bot]` accounts.
   */
  addUser(
    login: string,
    options: {
      association?: Association;
      type?: UserType;
      repos?: Record<string, Association>;
    } = {},
  ): void {
    this.state.addUser(login, options);
  }

  /**
   * Sets `login`'s role on `repo` as `GET /repos/{o}/{r}/collaborators/{login}/permission`
   * reports it in `role_name` (default: derived from the association; see State.roleOf).
   */
  setRole(repo: string, login: string, role: string): void {
    this.state.setRole(repo, login, role);
  }

  /** Makes `login` a member of the organisation `org` (`GET /orgs/{org}/members/{login}`: 204). */
  addOrgMember(org: string, login: string): void {
    this.state.user(login);
    this.state.orgMembers.add(`${org}:${login}`.toLowerCase());
  }

  /** Leaves a reaction (`+1` unless `content`) on a comment as `login`, as a person does. */
  react(commentId: number, login: string, content = '+1'): void {
    const comment = this.findComment(commentId);
    if (comment.reactions.some((r) => r.user === login && r.content === content)) return;
    comment.reactions.push({
      id: newReactionId(),
      user: this.state.user(login).login,
      content,
      createdAt: this.state.timestamp(),
    });
  }

  /** A comment's reactions, oldest first. */
  reactions(commentId: number): readonly ReactionRecord[] {
    return [...this.findComment(commentId).reactions];
  }

  /** An issue's timeline as the fake keeps it, oldest first. */
  timeline(repo: string, number: number): readonly TimelineRecord[] {
    return [...this.state.issue(this.state.repo(repo), number).timeline];
  }

  /** Opens an issue (or pull request) and returns its number. */
  createIssue(repo: string, options: NewIssue = {}): number {
    return this.state.createIssue(repo, options).number;
  }

  /** Posts a comment as `author`; `createdAt`/`updatedAt` backdate it. Returns GitHub's JSON. */
  addComment(
    repo: string,
    number: number,
    options: { author: string; body: string; createdAt?: TimeInput; updatedAt?: TimeInput },
  ): CommentJson {
    const record = this.state.repo(repo);
    const comment = this.state.addComment(record, this.state.issue(record, number), {
      author: options.author,
      body: options.body,
      createdAt: toIso(options.createdAt),
      updatedAt: toIso(options.updatedAt),
    });
    return this.payloads.comment(comment);
  }

  /** Edits a comment (as its author unless `actor`); `updatedAt` overrides the new time. */
  editComment(
    id: number,
    body: string,
    options: { actor?: string; updatedAt?: TimeInput } = {},
  ): CommentJson {
    const comment = this.findComment(id);
    this.state.editComment(comment, body, options.actor ?? comment.author, {
      updatedAt: toIso(options.updatedAt),
    });
    return this.payloads.comment(comment);
  }

  /** Deletes a comment (as its author unless `actor`). */
  deleteComment(id: number, options: { actor?: string } = {}): void {
    const comment = this.findComment(id);
    this.state.deleteComment(comment, options.actor ?? comment.author);
  }

  /** Creates a repository label. */
  createLabel(repo: string, label: { name: string; color?: string; description?: string }): void {
    this.state.createLabel(this.state.repo(repo), label);
  }

  /** Adds labels to an issue as `actor` (default: the repository owner). */
  addLabels(
    repo: string,
    number: number,
    labels: readonly string[],
    options: { actor?: string } = {},
  ) {
    const record = this.state.repo(repo);
    this.state.addLabels(
      record,
      this.state.issue(record, number),
      labels,
      options.actor ?? record.owner,
    );
  }

  /** Removes a label from an issue as `actor` (default: the repository owner). */
  removeLabel(repo: string, number: number, label: string, options: { actor?: string } = {}) {
    const record = this.state.repo(repo);
    this.state.removeLabel(
      record,
      this.state.issue(record, number),
      label,
      options.actor ?? record.owner,
    );
  }

  /** Assigns logins as `actor`, without GitHub's assignability rule (seeding). */
  assign(
    repo: string,
    number: number,
    logins: readonly string[],
    options: { actor?: string } = {},
  ) {
    const record = this.state.repo(repo);
    this.state.addAssignees(
      record,
      this.state.issue(record, number),
      logins,
      options.actor ?? record.owner,
      {
        force: true,
      },
    );
  }

  /** Unassigns logins as `actor`. */
  unassign(
    repo: string,
    number: number,
    logins: readonly string[],
    options: { actor?: string } = {},
  ) {
    const record = this.state.repo(repo);
    this.state.removeAssignees(
      this.state.issue(record, number),
      logins,
      options.actor ?? record.owner,
    );
  }

  /** Closes an issue (`completed` unless `reason`) as `actor`. */
  closeIssue(
    repo: string,
    number: number,
    options: { reason?: 'completed' | 'not_planned'; actor?: string } = {},
  ): void {
    const record = this.state.repo(repo);
    this.state.updateIssue(
      record,
      this.state.issue(record, number),
      { state: 'closed', stateReason: options.reason ?? 'completed' },
      options.actor ?? record.owner,
    );
  }

  /** Reopens an issue as `actor`. */
  reopenIssue(repo: string, number: number, options: { actor?: string } = {}): void {
    const record = this.state.repo(repo);
    this.state.updateIssue(
      record,
      this.state.issue(record, number),
      { state: 'open' },
      options.actor ?? record.owner,
    );
  }

  /** Deletes an issue as `actor` (`issues.deleted`; the API then answers 410 Gone). */
  deleteIssue(repo: string, number: number, options: { actor?: string } = {}): void {
    const record = this.state.repo(repo);
    this.state.deleteIssue(this.state.issue(record, number), options.actor ?? record.owner);
  }

  /**
   * Transfers an issue to `toRepo` as `actor` (`issues.transferred`; the old number then
   * redirects with 301). Returns the new number.
   */
  transferIssue(repo: string, number: number, toRepo: string, options: { actor?: string } = {}) {
    const record = this.state.repo(repo);
    const issue = this.state.issue(record, number);
    return this.state.transferIssue(issue, this.state.repo(toRepo), options.actor ?? record.owner)
      .number;
  }

  /** Stores a file for the contents API, e.g. `.github/claims.yml`. */
  setFile(repo: string, path: string, content: string): void {
    this.state.setFile(repo, path, content);
  }

  // ---- branches (docs/protocol.md §17) ---------------------------------------------------

  /**
   * Creates `name` on `repo` with `ahead` commits the default branch (`main`) lacks (default
   * 0): `GET …/compare/main...name` answers it, with the newest commit last. Returns the head
   * SHA (the fork point's when not ahead).
   */
  createBranch(repo: string, name: string, options: { ahead?: number } = {}): string {
    const base = this.pulls.newSha();
    const ahead = Array.from({ length: options.ahead ?? 0 }, () => this.pulls.newSha());
    this.branches.add({ repo: this.state.repo(repo).fullName, name, ahead, base });
    return ahead.at(-1) ?? base;
  }

  /** Deletes a branch: its compare answers 404 again. */
  deleteBranch(repo: string, name: string): void {
    this.branches.branches.delete(`${this.state.repo(repo).fullName.toLowerCase()}#${name}`);
  }

  // ---- pull requests and pushes (docs/protocol.md §11) ----------------------------------

  /**
   * Opens a pull request from `head` (a branch of `headRepo`, default the same repository)
   * into `base` (default `main`) changing `files`; delivers `pull_request.opened`.
   */
  openPullRequest(
    repo: string,
    options: {
      head: string;
      files: readonly string[];
      author?: string;
      title?: string;
      /** Its description: each issue it mentions (`#12`, `Fixes #12`) gets a `cross-referenced` event. */
      body?: string;
      base?: string;
      headRepo?: string;
    },
  ): number {
    const record = this.state.repo(repo);
    const issue = this.state.createIssue(repo, {
      isPullRequest: true,
      ...(options.author ? { author: options.author } : {}),
      ...(options.title ? { title: options.title } : {}),
      ...(options.body ? { body: options.body } : {}),
    });
    if (options.body) crossReference(this.state, issue, options.body, issue.createdAt);
    const pull: PullRecord = {
      issue,
      head: {
        ref: options.head,
        sha: this.pulls.newSha(),
        repo: options.headRepo ?? record.fullName,
      },
      base: { ref: options.base ?? 'main', sha: this.pulls.newSha(), repo: record.fullName },
      files: [...options.files].sort(),
    };
    this.pulls.addPull(pull);
    this.emitEvent(pullRequestEvent(this.pullDeps, pull, 'opened', issue.author));
    return issue.number;
  }

  /**
   * A new commit on a pull request's head (`files`: its changed files from then on): delivers
   * `push` to the head branch (same repository only) and `pull_request.synchronize`, as GitHub
   * does. Returns the new head SHA.
   */
  pushToPullRequest(
    repo: string,
    number: number,
    options: { files?: readonly string[]; pusher?: string } = {},
  ): string {
    const pull = this.pullRecord(repo, number);
    const before = pull.head.sha;
    pull.head.sha = this.pulls.newSha();
    this.pulls.addPull(pull);
    if (options.files) pull.files = [...options.files].sort();
    const pusher = options.pusher ?? pull.issue.author;
    const target = this.state.repo(pull.head.repo);
    if (target.fullName === pull.base.repo) {
      const commits = [{ id: pull.head.sha, modified: pull.files }];
      const at = this.clock();
      const event = { before, after: pull.head.sha, branch: pull.head.ref, pusher, at };
      this.emitEvent(pushEvent(this.pullDeps, target, event, commits));
    }
    this.emitEvent(
      pullRequestEvent(this.pullDeps, pull, 'synchronize', pusher, {
        before,
        after: pull.head.sha,
      }),
    );
    return pull.head.sha;
  }

  /** Edits a pull request's title as `actor`: `pull_request.edited`. */
  editPullRequest(repo: string, number: number, title: string, actor?: string): void {
    const pull = this.pullRecord(repo, number);
    const from = pull.issue.title;
    pull.issue.title = title;
    this.emitEvent(
      pullRequestEvent(this.pullDeps, pull, 'edited', actor ?? pull.issue.author, {
        changes: { title: { from } },
      }),
    );
  }

  /**
   * A push to `branch` of `repo` that is not a pull request's head: `files` (path -> content)
   * are stored first, then `push` is delivered with one commit modifying them (or
   * `commits`). Returns the new SHA.
   */
  push(repo: string, input: PushInput & { files?: Readonly<Record<string, string>> }): string {
    const record = this.state.repo(repo);
    for (const [path, content] of Object.entries(input.files ?? {})) {
      this.state.setFile(repo, path, content);
    }
    const before = this.pulls.newSha();
    const after = this.pulls.newSha();
    this.pulls.addCommit(record.fullName, after);
    const modified = input.commits ?? [
      { modified: Object.keys(input.files ?? { 'README.md': '' }) },
    ];
    const commits = modified.map((c, i) => ({
      id: i === modified.length - 1 ? after : this.pulls.newSha(),
      modified: c.modified,
    }));
    const event = {
      before,
      after,
      branch: input.branch,
      pusher: input.pusher,
      at: input.at ?? this.clock(),
    };
    this.emitEvent(pushEvent(this.pullDeps, record, event, commits));
    return after;
  }

  /** The pull request `number` of `repo` (its head, base and files). */
  pullRecord(repo: string, number: number): PullRecord {
    const pull = this.pulls.pull(this.state.repo(repo).fullName, number);
    if (!pull) throw new Error(`no pull request ${repo}#${number}`);
    return pull;
  }

  /** The check runs on commit `sha` of `repo`, oldest first. */
  checkRuns(repo: string, sha: string): CheckRunRecord[] {
    const name = this.state.repo(repo).fullName.toLowerCase();
    return [...this.pulls.checkRuns.values()].filter(
      (run) => run.repo.toLowerCase() === name && run.headSha === sha,
    );
  }

  private emitEvent(event: ReturnType<typeof pushEvent>): void {
    if (event) this.outbox.enqueue(event);
  }

  // ---- inspection ----------------------------------------------------------------------

  /** The issue's current state: label names, assignee logins, state, counts. */
  issue(repo: string, number: number): IssueSnapshot {
    const issue = this.state.issue(this.state.repo(repo), number);
    return {
      number: issue.number,
      title: issue.title,
      body: issue.body,
      state: issue.state,
      state_reason: issue.stateReason,
      labels: [...issue.labels],
      assignees: [...issue.assignees],
      isPullRequest: issue.isPullRequest,
      comments: issue.commentIds.length,
      author: issue.author,
      created_at: issue.createdAt,
      updated_at: issue.updatedAt,
      closed_at: issue.closedAt,
    };
  }

  /** The issue's comments as GitHub returns them, oldest first. */
  comments(repo: string, number: number): CommentJson[] {
    const issue = this.state.issue(this.state.repo(repo), number);
    return issue.commentIds.map((id) => this.payloads.comment(this.state.comments.get(id)!));
  }

  /** One comment as GitHub returns it, or undefined when deleted. */
  comment(id: number): CommentJson | undefined {
    const comment = this.state.comments.get(id);
    return comment ? this.payloads.comment(comment) : undefined;
  }

  /** The repository's labels as GitHub returns them (name, color, description, …). */
  labels(repo: string): LabelJson[] {
    const record = this.state.repo(repo);
    return [...record.labels.values()].map((label) => this.payloads.label(record, label));
  }

  // ---- credentials ---------------------------------------------------------------------

  /** A personal access token that authenticates as `login` (stable per login). */
  tokenFor(login: string): string {
    const user = this.state.user(login);
    let token = this.userTokens.get(user.login);
    if (!token) {
      token = `ghp_${Buffer.from(`${user.id}:${user.login}`).toString('hex').slice(0, 36).padEnd(36, '0')}`;
      this.userTokens.set(user.login, token);
      this.tokens.set(token, { kind: 'user', login: user.login });
    }
    return token;
  }

  /**
   * What GitHub does when a person confirms the manifest form of Probot's setup page: keeps
   * the manifest and returns the code it redirects to `redirect_url` with. The code converts
   * once (`POST /app-manifests/:code/conversions`) into this fake's app, with a new private
   * key and webhook secret.
   */
  registerManifest(manifest: Record<string, unknown>): string {
    const code = `manifest-${randomUUID()}`;
    this.manifests.set(code, manifest);
    return code;
  }

  /**
   * A fresh GitHub App user access token (`ghu_`) for `login`, as the OAuth web flow's code
   * exchange gives: it reads `/user` and `/user/installations`.
   */
  userAccessToken(login: string): string {
    const token = `ghu_${randomBytes(18).toString('hex')}`;
    this.tokens.set(token, {
      kind: 'user',
      login: this.state.user(login).login,
      appUserToken: true,
    });
    return token;
  }

  /** Revokes every user access token of `login` (GitHub then answers 401 Bad credentials). */
  revokeUserAccessTokens(login: string): void {
    for (const [token, auth] of this.tokens) {
      if (
        auth.kind === 'user' &&
        auth.appUserToken &&
        auth.login.toLowerCase() === login.toLowerCase()
      ) {
        this.tokens.delete(token);
      }
    }
  }

  /** Revokes one user access token; its login, or undefined when it was not one. */
  private forgetUserAccessToken(token: string): string | undefined {
    const auth = this.tokens.get(token);
    if (auth?.kind !== 'user' || !auth.appUserToken) return undefined;
    this.tokens.delete(token);
    return auth.login;
  }

  /** A fresh installation access token, as `POST /app/installations/:id/access_tokens` gives. */
  installationToken(installationId: number): string {
    return this.mintInstallationToken(installationId).token;
  }

  // ---- request log ---------------------------------------------------------------------

  /**
   * Throws, listing each one, when the fake saw a request GitHub would have refused: a test
   * must not pass on a call that fails against the real API.
   */
  assertValid(): void {
    if (this.invalidRequests.length === 0) return;
    const lines = this.invalidRequests.map(
      (r) => `${r.method} ${r.path} -> ${r.status}: ${r.problems.join('; ')}`,
    );
    throw new Error(
      `the fake GitHub saw ${lines.length} request(s) GitHub would refuse:\n${lines.join('\n')}`,
    );
  }

  /** Forgets the request log. */
  clearRequests(): void {
    this.requests.length = 0;
  }

  /** Requests that were not GETs. */
  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
  }

  /** How many requests had `method` (`*` for any) and a path matching `path`. */
  count(method: string, path: RegExp | string): number {
    return this.requests.filter(
      (r) =>
        (method === '*' || r.method === method.toUpperCase()) &&
        (typeof path === 'string' ? r.path === path : path.test(r.path)),
    ).length;
  }

  // ---- failure injection ---------------------------------------------------------------

  /** Makes the next `times` matching requests fail (or wait); see `InjectionSpec`. */
  inject(spec: InjectionSpec): Injection {
    if (spec.status === undefined && spec.body !== undefined) {
      throw new Error('inject: a body needs a status');
    }
    const injection: Injection = { ...spec, hits: 0, remaining: spec.times ?? 1 };
    this.injections.push(injection);
    return injection;
  }

  /** Removes every injection. */
  clearInjections(): void {
    this.injections = [];
  }

  // ---- webhooks ------------------------------------------------------------------------

  /** Deliveries produced while a target was set, in order. */
  get deliveries(): readonly WebhookDelivery[] {
    return this.outbox.deliveries;
  }

  /**
   * Every attempt to send a delivery, oldest first, as `GET /app/hook/deliveries` lists them:
   * a delivery made while the app was down is recorded with `statusCode` 0.
   */
  get hookAttempts(): readonly HookAttempt[] {
    return this.outbox.attempts;
  }

  /** Sets where state changes are delivered (`{ url, secret }` or `{ capture: true }`), or stops. */
  setWebhookTarget(target: WebhookTarget | undefined): void {
    this.outbox.setTarget(target);
  }

  /** Holds deliveries until `resumeWebhooks`. */
  pauseWebhooks(): void {
    this.outbox.pause();
  }

  /** Sends held deliveries in order. */
  resumeWebhooks(): void {
    this.outbox.resume();
  }

  /** Resolves when every delivery sent so far has been answered. */
  settled(): Promise<void> {
    return this.outbox.settled();
  }

  /** Stops the server (waiting for pending deliveries first). */
  async close(): Promise<void> {
    await this.outbox.settled();
    await new Promise<void>((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      this.server.closeAllConnections();
    });
  }

  // ---- internals -----------------------------------------------------------------------

  private findComment(id: number) {
    const comment = this.state.comments.get(id);
    if (!comment) throw new Error(`unknown comment ${id}`);
    return comment;
  }

  private convertManifest(code: string): Record<string, unknown> | undefined {
    const manifest = this.manifests.get(code);
    if (!manifest) return undefined;
    // GitHub's codes work once.
    this.manifests.delete(code);
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    return {
      ...this.payloads.app(),
      // The app keeps this fake's id and slug, so the rest of the fake knows it.
      ...(typeof manifest.name === 'string' ? { name: manifest.name } : {}),
      client_id: `Iv1.${this.app.id.toString(16).padStart(16, '0')}`,
      client_secret: randomUUID().replace(/-/g, ''),
      webhook_secret: randomUUID().replace(/-/g, ''),
      pem: privateKey,
    };
  }

  private mintInstallationToken(installationId: number): { token: string; expiresAt: string } {
    if (!this.state.installations.has(installationId)) {
      throw new HttpError(404, 'Not Found');
    }
    const token = `ghs_${installationId}_${++this.tokenCount}`;
    this.tokens.set(token, { kind: 'installation', installationId, login: this.botLogin });
    // Tokens never expire here: tests move `clock` hours ahead while the app caches tokens.
    const expiresAt = isoSeconds(new Date(this.clock().getTime() + 3_600_000));
    return { token, expiresAt };
  }

  private onChange(change: Change): void {
    recordTimeline(change);
    // Render now: a payload shows the state at the time of the event, as GitHub's do.
    const event = this.payloads.webhook(change);
    if (event) this.outbox.enqueue(event);
  }

  /** Who the `Authorization` header names, or an HttpError for a bad one. */
  private authenticate(req: IncomingMessage): Auth | HttpError {
    const header = req.headers.authorization;
    if (!header) return { kind: 'anonymous' };
    // The app's client id and secret (Basic) authenticate only the OAuth app routes, which
    // check them themselves (oauth.ts); as a user they are nobody.
    if (/^basic\s/i.test(header) && (req.url ?? '').startsWith('/api/v3/applications/')) {
      return { kind: 'anonymous' };
    }
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header);
    if (!match) return new HttpError(401, 'Bad credentials');
    const token = match[1]!;
    // A JWT has three dot-separated parts; the fake trusts any signature (it holds no public
    // key) but, as GitHub, not one issued for another app: GitHub then answers this 401.
    const parts = token.split('.');
    if (parts.length === 3) {
      if (jwtIssuer(parts[1]!) !== String(this.app.id)) {
        return new HttpError(401, 'A JSON web token could not be decoded');
      }
      return { kind: 'app' };
    }
    return this.tokens.get(token) ?? new HttpError(401, 'Bad credentials');
  }

  private takeInjection(method: string, path: string, actor: string): Injection | undefined {
    const injection = this.injections.find(
      (i) =>
        i.remaining > 0 &&
        (i.method === undefined || i.method.toUpperCase() === method) &&
        (i.actor === undefined || i.actor.toLowerCase() === actor.toLowerCase()) &&
        (typeof i.path === 'string' ? i.path === path : i.path.test(path)),
    );
    if (injection) {
      injection.remaining -= 1;
      injection.hits += 1;
    }
    return injection;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', this.url);
    const prefixed = url.pathname.startsWith('/api/v3/') || url.pathname === '/api/v3';
    const path = prefixed ? url.pathname.slice('/api/v3'.length) || '/' : url.pathname;
    const text = await readBody(req);
    let body: unknown;
    let parseError: HttpError | undefined;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
        parseError = new HttpError(400, 'Problems parsing JSON');
      }
    }
    const auth = this.authenticate(req);
    const actor =
      auth instanceof HttpError
        ? 'invalid'
        : auth.kind === 'app'
          ? 'app-jwt'
          : auth.kind === 'anonymous'
            ? 'anonymous'
            : auth.login;

    let reply: Reply;
    // What GitHub would refuse is refused before anything else but bad credentials (GitHub
    // answers those 401 first): no injected failure or delay can hide it.
    const verdict =
      prefixed && !(auth instanceof HttpError)
        ? validateRequest(method, path, url.searchParams, parseError ? undefined : body)
        : undefined;
    if (verdict && !verdict.ok) {
      this.invalidRequests.push({
        method,
        path,
        query: Object.fromEntries(url.searchParams),
        body,
        status: verdict.status,
        problems: verdict.problems,
      });
      reply = {
        status: verdict.status,
        body: {
          message:
            verdict.status === 404
              ? 'Not Found'
              : `Invalid request.\n\n${verdict.problems.join('\n')}`,
          documentation_url: DOCS,
          status: String(verdict.status),
        },
      };
      this.requests.push({
        method,
        path,
        query: Object.fromEntries(url.searchParams),
        body,
        status: reply.status,
        actor,
        at: this.clock(),
      });
      this.send(res, reply);
      return;
    }
    const injection = this.takeInjection(method, path, actor);
    if (injection?.delayMs) await new Promise((r) => setTimeout(r, injection.delayMs));
    if (injection?.hold) await injection.hold().catch(() => {});
    if (injection?.status !== undefined) {
      const headers = injection.headers ?? {};
      reply = {
        status: injection.status,
        body: injection.body ?? {
          message: defaultErrorMessage(injection.status, headers),
          documentation_url: DOCS,
          status: String(injection.status),
        },
        headers,
      };
    } else {
      // The web host serves the OAuth flow; everything else lives under /api/v3.
      const web = prefixed
        ? undefined
        : this.oauth.handle(method, path, url.searchParams, text, req.headers);
      reply =
        web ?? this.dispatch(method, path, prefixed, url.searchParams, body, parseError, auth, req);
      if (injection?.headers)
        reply = { ...reply, headers: { ...reply.headers, ...injection.headers } };
    }

    if (prefixed && method === 'GET' && reply.status === 200 && reply.body !== undefined) {
      reply = conditional(reply, req.headers.authorization, req.headers['if-none-match']);
    }

    this.requests.push({
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      body,
      status: reply.status,
      actor,
      at: this.clock(),
    });
    this.send(res, reply);
  }

  private dispatch(
    method: string,
    path: string,
    prefixed: boolean,
    query: URLSearchParams,
    body: unknown,
    parseError: HttpError | undefined,
    auth: Auth | HttpError,
    req: IncomingMessage,
  ): Reply {
    try {
      const found = prefixed ? matchRoute(this.routes, method, path) : undefined;
      if (!found) throw new HttpError(404, 'Not Found');
      if (auth instanceof HttpError) throw auth;
      if (found.route.access === 'jwt' && auth.kind !== 'app') {
        throw new HttpError(401, 'A JSON web token could not be decoded');
      }
      if (found.route.access === 'token' && auth.kind === 'app') {
        throw new HttpError(403, 'Resource not accessible by integration');
      }
      if (parseError) throw parseError;
      return found.route.handler({
        method,
        path,
        params: found.params,
        query,
        body,
        auth,
        headers: req.headers,
      });
    } catch (error) {
      if (error instanceof HttpError) {
        return {
          status: error.status,
          body: {
            message: error.message,
            ...error.extra,
            documentation_url: DOCS,
            status: String(error.status),
          },
          headers: error.headers,
        };
      }
      this.log('fake-github: handler crashed', { method, path, error: String(error) });
      return { status: 500, body: { message: 'Server Error', status: '500' } };
    }
  }

  private send(res: ServerResponse, reply: Reply): void {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    const headers: Record<string, string> = {
      'x-github-request-id': randomUUID().toUpperCase(),
      'x-github-api-version-selected': '2022-11-28',
      'x-github-media-type': 'github.v3; format=json',
      // Constant budgets: enough for octokit's throttling to stay idle unless a test injects.
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-reset': String(reset),
      'x-ratelimit-used': '1',
      'x-ratelimit-resource': 'core',
    };
    let payload: string | undefined;
    if (reply.raw !== undefined) {
      payload = reply.raw;
    } else if (reply.body !== undefined && reply.status !== 204) {
      headers['content-type'] = 'application/json; charset=utf-8';
      payload = JSON.stringify(reply.body);
    }
    for (const [key, value] of Object.entries(reply.headers ?? {})) {
      headers[key.toLowerCase()] = value;
    }
    res.writeHead(reply.status, headers);
    res.end(payload);
  }
}

/** Starts the fake on 127.0.0.1 (a free port unless `options.port`). */
export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return new FakeGitHub(server, options);
}

/**
 * GitHub's conditional GET: a JSON answer carries a weak ETag, and a request whose
 * `If-None-Match` names it is answered 304 without a body (which GitHub does not count
 * against the rate limit). The ETag hashes the credentials with the body, as GitHub's is tied
 * to the token: another token, or a new one of the same installation, gets a 200.
 */
function conditional(
  reply: Reply,
  authorization: string | undefined,
  ifNoneMatch: string | undefined,
): Reply {
  const hash = createHash('sha256')
    .update(authorization ?? '')
    .update('\n')
    .update(JSON.stringify(reply.body))
    .digest('hex');
  const etag = `W/"${hash.slice(0, 40)}"`;
  const wanted = (ifNoneMatch ?? '').split(',').map((tag) => tag.trim());
  if (wanted.includes(etag) || wanted.includes(etag.slice(2))) {
    const { link } = reply.headers ?? {};
    return { status: 304, headers: { etag, ...(link ? { link } : {}) } };
  }
  return { ...reply, headers: { ...reply.headers, etag } };
}

/** The `iss` claim of a JWT's payload part, as a string; undefined when it has none. */
function jwtIssuer(payload: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      iss?: unknown;
    };
    return claims.iss === undefined ? undefined : String(claims.iss);
  } catch {
    return undefined;
  }
}
