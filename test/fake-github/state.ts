/**
 * The in-memory model behind the GitHub fake: users, installations, repositories, issues,
 * comments, labels and files. Every mutation is synchronous (so one HTTP request is atomic,
 * as node runs one handler at a time) and reports what it changed to a listener, which the
 * server turns into webhook deliveries shaped like GitHub's.
 */

import type { ReactionRecord, TimelineRecord } from './people.js';

/** `author_association` values GitHub reports on issues and comments. */
export type Association =
  | 'OWNER'
  | 'MEMBER'
  | 'COLLABORATOR'
  | 'CONTRIBUTOR'
  | 'FIRST_TIMER'
  | 'FIRST_TIME_CONTRIBUTOR'
  | 'MANNEQUIN'
  | 'NONE';

/** Account types GitHub reports in `user.type`. */
export type UserType = 'User' | 'Bot' | 'Organization';

/** A GitHub account. */
export interface UserRecord {
  readonly login: string;
  readonly id: number;
  type: UserType;
  /** Association on every repository unless overridden in `repoAssociation`. */
  association: Association;
  /** Per-repository override, keyed by lower-case `owner/name`. */
  readonly repoAssociation: Map<string, Association>;
}

/** A repository label. */
export interface LabelRecord {
  readonly id: number;
  name: string;
  color: string;
  description: string | null;
}

/** An issue or pull request (they share numbers and the issues API, as on GitHub). */
export interface IssueRecord {
  readonly id: number;
  readonly number: number;
  /** Canonical `owner/name` of its repository. */
  readonly repo: string;
  title: string;
  body: string | null;
  author: string;
  state: 'open' | 'closed';
  stateReason: 'completed' | 'not_planned' | 'reopened' | null;
  /** Canonical label names, in the order they were added. */
  labels: string[];
  assignees: string[];
  readonly isPullRequest: boolean;
  readonly createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedBy: string | null;
  /** Ids of the comments still present, ascending. */
  commentIds: number[];
  /** Its timeline (`GET …/issues/{n}/timeline`), oldest first; see `people.ts`. */
  timeline: TimelineRecord[];
  /** Set once the issue is deleted or transferred; GitHub then answers 410 or 301. */
  fate:
    | null
    | { readonly kind: 'deleted' }
    | { readonly kind: 'transferred'; readonly to: IssueRecord };
}

/** An issue comment. */
export interface CommentRecord {
  readonly id: number;
  /** Where the comment lives now: a transfer moves comments with their issue. */
  repo: string;
  issueNumber: number;
  readonly author: string;
  body: string;
  readonly createdAt: string;
  updatedAt: string;
  /** Posted with the app's installation token, so GitHub shows `performed_via_github_app`. */
  readonly viaApp: boolean;
  /** Its reactions, oldest first (`…/comments/{id}/reactions`, the `reactions` rollup). */
  readonly reactions: ReactionRecord[];
}

/** A repository. */
export interface RepoRecord {
  readonly id: number;
  readonly owner: string;
  readonly name: string;
  readonly fullName: string;
  installationId: number | null;
  readonly private: boolean;
  readonly createdAt: string;
  /** Keyed by lower-case name: GitHub label names are case-insensitive. */
  readonly labels: Map<string, LabelRecord>;
  readonly issues: Map<number, IssueRecord>;
  /** File path (no leading slash) to UTF-8 content, for the contents API. */
  readonly files: Map<string, string>;
  nextNumber: number;
}

/** An installation of the app on one account. */
export interface InstallationRecord {
  readonly id: number;
  readonly account: string;
  readonly accountType: 'Organization' | 'User';
  readonly createdAt: string;
}

/** What a mutation changed; the server renders each into a webhook delivery. */
export type Change =
  | {
      readonly kind: 'issues';
      readonly action: 'opened' | 'closed' | 'reopened';
      readonly issue: IssueRecord;
      readonly actor: string;
    }
  | {
      readonly kind: 'issues';
      readonly action: 'edited';
      readonly issue: IssueRecord;
      readonly actor: string;
      readonly changes: { title?: { from: string }; body?: { from: string | null } };
    }
  | {
      readonly kind: 'issues';
      readonly action: 'labeled' | 'unlabeled';
      readonly issue: IssueRecord;
      readonly actor: string;
      readonly label: LabelRecord;
    }
  | {
      readonly kind: 'issues';
      readonly action: 'assigned' | 'unassigned';
      readonly issue: IssueRecord;
      readonly actor: string;
      readonly assignee: string;
    }
  | {
      readonly kind: 'issues';
      readonly action: 'deleted';
      readonly issue: IssueRecord;
      readonly actor: string;
    }
  | {
      readonly kind: 'issues';
      readonly action: 'transferred';
      readonly issue: IssueRecord;
      readonly actor: string;
      readonly newIssue: IssueRecord;
    }
  | {
      readonly kind: 'issue_comment';
      readonly action: 'created' | 'deleted';
      readonly issue: IssueRecord;
      readonly comment: CommentRecord;
      readonly actor: string;
    }
  | {
      readonly kind: 'issue_comment';
      readonly action: 'edited';
      readonly issue: IssueRecord;
      readonly comment: CommentRecord;
      readonly actor: string;
      readonly changes: { body: { from: string } };
    }
  | {
      readonly kind: 'installation';
      readonly action: 'created';
      readonly installation: InstallationRecord;
      readonly actor: string;
    }
  | {
      readonly kind: 'installation_repositories';
      readonly action: 'added';
      readonly installation: InstallationRecord;
      readonly repos: readonly RepoRecord[];
      readonly actor: string;
    };

/** Thrown by the model for a request GitHub would refuse; the router turns it into JSON. */
/** What a new issue (or pull request) starts with. */
export interface NewIssue {
  readonly title?: string;
  readonly body?: string | null;
  readonly author?: string;
  readonly labels?: readonly string[];
  readonly assignees?: readonly string[];
  readonly state?: 'open' | 'closed';
  readonly stateReason?: 'completed' | 'not_planned';
  readonly isPullRequest?: boolean;
}

export class HttpError extends Error {
  /** HTTP status to answer with. */
  readonly status: number;
  /** Extra JSON fields, such as `errors` on a 422. */
  readonly extra: Record<string, unknown>;
  /** Extra response headers, such as `location` on a 301. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }
}

/** GitHub renders times as `2026-11-30T06:00:00Z`: UTC, whole seconds. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The color GitHub gives a label created implicitly by adding it to an issue. */
export const DEFAULT_LABEL_COLOR = 'ededed';

const TRUSTED: readonly Association[] = ['OWNER', 'MEMBER', 'COLLABORATOR'];

/** A GitHub issue may carry at most 10 assignees. */
const MAX_ASSIGNEES = 10;

/** The fake's world. A thin class over maps; `emit` receives every change. */
export class State {
  readonly users = new Map<string, UserRecord>();
  readonly repos = new Map<string, RepoRecord>();
  readonly installations = new Map<number, InstallationRecord>();
  readonly comments = new Map<number, CommentRecord>();
  /** Roles set by `setRole`, keyed by lower-case `owner/name:login`. */
  readonly roles = new Map<string, string>();
  /** Organisation members added by `addOrgMember`, as lower-case `org:login`. */
  readonly orgMembers = new Set<string>();
  /** When false, assigning anyone sticks; when true, GitHub's assignability rule applies. */
  checkAssignable = true;

  // GitHub ids are large and comment ids exceed 2^31, so int32 assumptions fail here too.
  private nextUserId = 1_000;
  private nextRepoId = 500_000_000;
  private nextIssueId = 2_000_000_000;
  private nextCommentId = 3_000_000_000;
  private nextLabelId = 6_000_000_000;

  constructor(
    private readonly now: () => Date,
    private readonly emit: (change: Change) => void,
  ) {}

  /** The current time as GitHub renders it. */
  timestamp(): string {
    return isoSeconds(this.now());
  }

  // ---- users ---------------------------------------------------------------------------

  /** The user with `login`, created as a plain `User` with association `NONE` when new. */
  user(login: string): UserRecord {
    const key = login.toLowerCase();
    let user = this.users.get(key);
    if (!user) {
      user = {
        login,
        id: this.nextUserId++,
        type: login.endsWith('[bot]') ? 'Bot' : 'User',
        association: 'NONE',
        repoAssociation: new Map(),
      };
      this.users.set(key, user);
    }
    return user;
  }

  /** Adds or updates a user. */
  addUser(
    login: string,
    options: {
      association?: Association;
      type?: UserType;
      repos?: Record<string, Association>;
    } = {},
  ): UserRecord {
    const user = this.user(login);
    if (options.type) user.type = options.type;
    if (options.association) user.association = options.association;
    for (const [repo, association] of Object.entries(options.repos ?? {})) {
      user.repoAssociation.set(repo.toLowerCase(), association);
    }
    return user;
  }

  /** `author_association` of `login` on `repo`. */
  association(login: string, repo: string): Association {
    const user = this.user(login);
    const override = user.repoAssociation.get(repo.toLowerCase());
    if (override) return override;
    // A person's own repository: GitHub reports OWNER.
    const owner = repo.split('/')[0] ?? '';
    if (user.type === 'User' && owner.toLowerCase() === login.toLowerCase()) return 'OWNER';
    return user.association;
  }

  // ---- installations and repositories --------------------------------------------------

  /** Adds an installation and its repositories (created when missing). */
  addInstallation(options: {
    id: number;
    account: string;
    accountType?: 'Organization' | 'User';
    repos?: readonly string[];
    actor?: string;
  }): InstallationRecord {
    if (this.installations.has(options.id)) {
      throw new Error(`installation ${options.id} exists already`);
    }
    const installation: InstallationRecord = {
      id: options.id,
      account: options.account,
      accountType: options.accountType ?? 'Organization',
      createdAt: this.timestamp(),
    };
    this.user(options.account).type = installation.accountType;
    this.installations.set(installation.id, installation);
    for (const fullName of options.repos ?? []) {
      // Repositories joining with their installation are announced by `installation.created`.
      const repo =
        this.repos.get(fullName.toLowerCase()) ?? this.addRepo(fullName, { installationId: null });
      repo.installationId = installation.id;
    }
    this.emit({
      kind: 'installation',
      action: 'created',
      installation,
      actor: options.actor ?? options.account,
    });
    return installation;
  }

  /**
   * Adds a repository. Without an explicit `installationId` it joins the installation on its
   * owner's account, if any, as with an installation on "all repositories".
   */
  addRepo(
    fullName: string,
    options: { installationId?: number | null; private?: boolean } = {},
  ): RepoRecord {
    const [owner, name, ...rest] = fullName.split('/');
    if (!owner || !name || rest.length > 0) throw new Error(`not owner/name: ${fullName}`);
    const key = fullName.toLowerCase();
    if (this.repos.has(key)) throw new Error(`repository ${fullName} exists already`);
    let installationId = options.installationId;
    if (installationId === undefined) {
      const owning = [...this.installations.values()].find(
        (i) => i.account.toLowerCase() === owner.toLowerCase(),
      );
      installationId = owning?.id ?? null;
    }
    if (installationId !== null && !this.installations.has(installationId)) {
      throw new Error(`installation ${installationId} does not exist`);
    }
    this.user(owner);
    const repo: RepoRecord = {
      id: this.nextRepoId++,
      owner,
      name,
      fullName: `${owner}/${name}`,
      installationId,
      private: options.private ?? false,
      createdAt: this.timestamp(),
      labels: new Map(),
      issues: new Map(),
      files: new Map(),
      nextNumber: 1,
    };
    this.repos.set(key, repo);
    const installation =
      installationId === null ? undefined : this.installations.get(installationId);
    if (installation) {
      this.emit({
        kind: 'installation_repositories',
        action: 'added',
        installation,
        repos: [repo],
        actor: installation.account,
      });
    }
    return repo;
  }

  /** The repository `owner/name` (case-insensitive), or undefined. */
  findRepo(fullName: string): RepoRecord | undefined {
    return this.repos.get(fullName.toLowerCase());
  }

  /** The repository `owner/name`; throws for a test that names one it did not add. */
  repo(fullName: string): RepoRecord {
    const repo = this.findRepo(fullName);
    if (!repo) throw new Error(`unknown repository ${fullName}`);
    return repo;
  }

  /** Repositories of an installation, in the order they were added. */
  reposOf(installationId: number): RepoRecord[] {
    return [...this.repos.values()].filter((r) => r.installationId === installationId);
  }

  /** Stores a file for the contents API. */
  setFile(fullName: string, path: string, content: string): void {
    this.repo(fullName).files.set(path.replace(/^\/+/, ''), content);
  }

  // ---- labels --------------------------------------------------------------------------

  /** The repository label named `name` (case-insensitive), or undefined. */
  findLabel(repo: RepoRecord, name: string): LabelRecord | undefined {
    return repo.labels.get(name.toLowerCase());
  }

  /** Creates a repository label; 422 `already_exists` on a duplicate, as GitHub does. */
  createLabel(
    repo: RepoRecord,
    input: { name: string; color?: string; description?: string | null },
  ): LabelRecord {
    const name = input.name.trim();
    if (name === '') {
      throw validationFailed('Label', 'name', 'missing_field');
    }
    if (this.findLabel(repo, name)) {
      throw validationFailed('Label', 'name', 'already_exists');
    }
    const color = (input.color ?? DEFAULT_LABEL_COLOR).replace(/^#/, '').toLowerCase();
    if (!/^[0-9a-f]{6}$/.test(color)) {
      throw validationFailed('Label', 'color', 'invalid');
    }
    const label: LabelRecord = {
      id: this.nextLabelId++,
      name,
      color,
      description: input.description ?? null,
    };
    repo.labels.set(name.toLowerCase(), label);
    return label;
  }

  /** Deletes a repository label, removing it from every issue (no webhook, as on GitHub). */
  deleteLabel(repo: RepoRecord, name: string): void {
    const label = this.findLabel(repo, name);
    if (!label) throw new HttpError(404, 'Not Found');
    repo.labels.delete(label.name.toLowerCase());
    for (const issue of repo.issues.values()) {
      issue.labels = issue.labels.filter((l) => l !== label.name);
    }
  }

  // ---- issues --------------------------------------------------------------------------

  /** Opens an issue (or pull request) and applies its initial labels and assignees. */
  createIssue(fullName: string, input: NewIssue = {}): IssueRecord {
    const repo = this.repo(fullName);
    const author = input.author ?? repo.owner;
    const now = this.timestamp();
    const number = repo.nextNumber++;
    const issue: IssueRecord = {
      id: this.nextIssueId++,
      number,
      repo: repo.fullName,
      title: input.title ?? `Issue ${number}`,
      body: input.body ?? null,
      author: this.user(author).login,
      state: 'open',
      stateReason: null,
      labels: [],
      assignees: [],
      isPullRequest: input.isPullRequest ?? false,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      closedBy: null,
      commentIds: [],
      timeline: [],
      fate: null,
    };
    repo.issues.set(number, issue);
    // GitHub delivers `opened` and then one `labeled`/`assigned` per initial value.
    this.emit({ kind: 'issues', action: 'opened', issue, actor: issue.author });
    if (input.labels?.length) this.addLabels(repo, issue, input.labels, issue.author);
    if (input.assignees?.length) {
      this.addAssignees(repo, issue, input.assignees, issue.author, { force: true });
    }
    if (input.state === 'closed') {
      this.updateIssue(repo, issue, { state: 'closed', stateReason: input.stateReason }, author);
    }
    return issue;
  }

  /** The issue `number` of `repo`; 404 when missing. */
  issue(repo: RepoRecord, number: number): IssueRecord {
    const issue = repo.issues.get(number);
    if (!issue) throw new HttpError(404, 'Not Found');
    if (issue.fate?.kind === 'deleted') throw new HttpError(410, 'This issue was deleted');
    // A transferred issue: the router answers 301 before asking; anything else is gone.
    if (issue.fate?.kind === 'transferred') throw new HttpError(404, 'Not Found');
    return issue;
  }

  /** Deletes an issue and its comments (GitHub then answers 410 Gone). */
  deleteIssue(issue: IssueRecord, actor: string): void {
    for (const id of issue.commentIds) this.comments.delete(id);
    issue.fate = { kind: 'deleted' };
    this.emit({ kind: 'issues', action: 'deleted', issue, actor });
  }

  /**
   * Moves an issue to another repository under a new number, with its comments; labels that
   * exist there by name and assignees are kept, as GitHub does. The old number answers 301.
   */
  transferIssue(issue: IssueRecord, target: RepoRecord, actor: string): IssueRecord {
    const number = target.nextNumber++;
    const moved: IssueRecord = {
      ...issue,
      id: this.nextIssueId++,
      number,
      repo: target.fullName,
      labels: issue.labels.filter((name) => this.findLabel(target, name)),
      assignees: [...issue.assignees],
      commentIds: [...issue.commentIds],
      timeline: [...issue.timeline],
      updatedAt: this.timestamp(),
      fate: null,
    };
    target.issues.set(number, moved);
    for (const id of moved.commentIds) {
      const comment = this.comments.get(id);
      if (comment) {
        comment.repo = target.fullName;
        comment.issueNumber = number;
      }
    }
    issue.commentIds = [];
    issue.fate = { kind: 'transferred', to: moved };
    this.emit({ kind: 'issues', action: 'transferred', issue, actor, newIssue: moved });
    return moved;
  }

  /** Applies an issue PATCH: state, state_reason, title, body, labels, assignees. */
  updateIssue(
    repo: RepoRecord,
    issue: IssueRecord,
    patch: {
      state?: 'open' | 'closed';
      stateReason?: 'completed' | 'not_planned' | 'reopened' | null;
      title?: string;
      body?: string | null;
      labels?: readonly string[];
      assignees?: readonly string[];
    },
    actor: string,
  ): void {
    const changes: { title?: { from: string }; body?: { from: string | null } } = {};
    if (patch.title !== undefined && patch.title !== issue.title) {
      changes.title = { from: issue.title };
      issue.title = patch.title;
    }
    if (patch.body !== undefined && patch.body !== issue.body) {
      changes.body = { from: issue.body };
      issue.body = patch.body;
    }
    if (changes.title || changes.body) {
      this.touch(issue);
      this.emit({ kind: 'issues', action: 'edited', issue, actor, changes });
    }
    if (patch.labels !== undefined) this.setLabels(repo, issue, patch.labels, actor);
    if (patch.assignees !== undefined) {
      const wanted = new Set(patch.assignees.map((a) => a.toLowerCase()));
      const gone = issue.assignees.filter((a) => !wanted.has(a.toLowerCase()));
      this.removeAssignees(issue, gone, actor);
      this.addAssignees(repo, issue, patch.assignees, actor);
    }
    if (patch.state === 'closed' && issue.state === 'open') {
      issue.state = 'closed';
      issue.stateReason = patch.stateReason === 'not_planned' ? 'not_planned' : 'completed';
      issue.closedAt = this.timestamp();
      issue.closedBy = actor;
      this.touch(issue);
      this.emit({ kind: 'issues', action: 'closed', issue, actor });
    } else if (patch.state === 'open' && issue.state === 'closed') {
      issue.state = 'open';
      issue.stateReason = 'reopened';
      issue.closedAt = null;
      issue.closedBy = null;
      this.touch(issue);
      this.emit({ kind: 'issues', action: 'reopened', issue, actor });
    } else if (patch.state === 'closed' && patch.stateReason && patch.stateReason !== 'reopened') {
      // Changing only the reason of a closed issue: GitHub updates it without an event.
      issue.stateReason = patch.stateReason;
    }
  }

  /** Adds labels to an issue, creating missing repository labels with color `ededed`. */
  addLabels(repo: RepoRecord, issue: IssueRecord, names: readonly string[], actor: string): void {
    for (const raw of names) {
      const name = raw.trim();
      if (name === '') continue;
      const label =
        this.findLabel(repo, name) ?? this.createLabel(repo, { name, color: DEFAULT_LABEL_COLOR });
      if (issue.labels.includes(label.name)) continue;
      issue.labels.push(label.name);
      this.touch(issue);
      this.emit({ kind: 'issues', action: 'labeled', issue, actor, label });
    }
  }

  /** Removes one label from an issue; 404 `Label does not exist` when it is not on it. */
  removeLabel(repo: RepoRecord, issue: IssueRecord, name: string, actor: string): void {
    const label = this.findLabel(repo, name);
    if (!label || !issue.labels.includes(label.name)) {
      throw new HttpError(404, 'Label does not exist');
    }
    issue.labels = issue.labels.filter((l) => l !== label.name);
    this.touch(issue);
    this.emit({ kind: 'issues', action: 'unlabeled', issue, actor, label });
  }

  /** Replaces an issue's labels. */
  setLabels(repo: RepoRecord, issue: IssueRecord, names: readonly string[], actor: string): void {
    const wanted = new Set(names.map((n) => n.trim().toLowerCase()));
    for (const current of [...issue.labels]) {
      if (!wanted.has(current.toLowerCase())) this.removeLabel(repo, issue, current, actor);
    }
    this.addLabels(repo, issue, names, actor);
  }

  /**
   * Whether `login` can be assigned (on `issue`, if given). GitHub silently drops anyone else:
   * collaborators and members can be assigned, and so can anyone who commented on the
   * issue; bot accounts cannot.
   */
  assignable(repo: RepoRecord, login: string, issue?: IssueRecord): boolean {
    if (!this.checkAssignable) return true;
    const user = this.user(login);
    if (user.type !== 'User') return false;
    if (TRUSTED.includes(this.association(login, repo.fullName))) return true;
    return (issue?.commentIds ?? []).some(
      (id) => this.comments.get(id)?.author.toLowerCase() === login.toLowerCase(),
    );
  }

  /** Adds assignees; the unassignable are dropped silently, as GitHub does. */
  addAssignees(
    repo: RepoRecord,
    issue: IssueRecord,
    logins: readonly string[],
    actor: string,
    options: { force?: boolean } = {},
  ): void {
    for (const login of logins) {
      if (issue.assignees.some((a) => a.toLowerCase() === login.toLowerCase())) continue;
      if (issue.assignees.length >= MAX_ASSIGNEES) break;
      if (!options.force && !this.assignable(repo, login, issue)) continue;
      const user = this.user(login);
      issue.assignees.push(user.login);
      this.touch(issue);
      this.emit({ kind: 'issues', action: 'assigned', issue, actor, assignee: user.login });
    }
  }

  /** Removes assignees; logins not assigned are ignored, as GitHub does. */
  removeAssignees(issue: IssueRecord, logins: readonly string[], actor: string): void {
    for (const login of logins) {
      const current = issue.assignees.find((a) => a.toLowerCase() === login.toLowerCase());
      if (!current) continue;
      issue.assignees = issue.assignees.filter((a) => a !== current);
      this.touch(issue);
      this.emit({ kind: 'issues', action: 'unassigned', issue, actor, assignee: current });
    }
  }

  // ---- comments ------------------------------------------------------------------------

  /** Posts a comment. `createdAt`/`updatedAt` may be given to backdate it. */
  addComment(
    repo: RepoRecord,
    issue: IssueRecord,
    input: {
      author: string;
      body: string;
      createdAt?: string;
      updatedAt?: string;
      viaApp?: boolean;
    },
  ): CommentRecord {
    const now = this.timestamp();
    const createdAt = input.createdAt ?? now;
    const comment: CommentRecord = {
      id: this.nextCommentId++,
      repo: repo.fullName,
      issueNumber: issue.number,
      author: this.user(input.author).login,
      body: input.body,
      createdAt,
      updatedAt: input.updatedAt ?? createdAt,
      viaApp: input.viaApp ?? false,
      reactions: [],
    };
    this.comments.set(comment.id, comment);
    issue.commentIds.push(comment.id);
    this.touch(issue);
    this.emit({ kind: 'issue_comment', action: 'created', issue, comment, actor: comment.author });
    return comment;
  }

  /** The comment `id` of `repo`; 404 when missing or in another repository. */
  comment(repo: RepoRecord, id: number): CommentRecord {
    const comment = this.comments.get(id);
    if (!comment || comment.repo !== repo.fullName) throw new HttpError(404, 'Not Found');
    return comment;
  }

  /** The issue a comment belongs to. */
  issueOf(comment: CommentRecord): IssueRecord {
    return this.issue(this.repo(comment.repo), comment.issueNumber);
  }

  /** Edits a comment's body; `updated_at` moves to now (or `updatedAt`). */
  editComment(
    comment: CommentRecord,
    body: string,
    actor: string,
    options: { updatedAt?: string } = {},
  ): void {
    if (body === comment.body && options.updatedAt === undefined) return;
    const from = comment.body;
    comment.body = body;
    comment.updatedAt = options.updatedAt ?? this.timestamp();
    const issue = this.issueOf(comment);
    this.touch(issue);
    if (from !== body) {
      this.emit({
        kind: 'issue_comment',
        action: 'edited',
        issue,
        comment,
        actor,
        changes: { body: { from } },
      });
    }
  }

  /** Deletes a comment. */
  deleteComment(comment: CommentRecord, actor: string): void {
    const issue = this.issueOf(comment);
    this.comments.delete(comment.id);
    issue.commentIds = issue.commentIds.filter((id) => id !== comment.id);
    this.touch(issue);
    this.emit({ kind: 'issue_comment', action: 'deleted', issue, comment, actor });
  }

  /**
   * The account's role on the repository, as `role_name` of the collaborator permission
   * endpoint reports it: set by `setRole`, else derived from the association (OWNER admin,
   * MEMBER and COLLABORATOR write, anyone else read on a public repository, none on a private).
   */
  roleOf(repo: RepoRecord, login: string): string {
    const explicit = this.roles.get(`${repo.fullName}:${login}`.toLowerCase());
    if (explicit !== undefined) return explicit;
    const association = this.association(login, repo.fullName);
    if (association === 'OWNER') return 'admin';
    if (association === 'MEMBER' || association === 'COLLABORATOR') return 'write';
    return repo.private ? 'none' : 'read';
  }

  /** Gives the account a role on the repository (`admin`, `maintain`, `write`, `triage`, `read`, `none`, or a custom role's name). */
  setRole(fullName: string, login: string, role: string): void {
    this.user(login);
    this.roles.set(`${this.repo(fullName).fullName}:${login}`.toLowerCase(), role);
  }

  /** Whether `actor` may edit or delete `comment`: its author or a collaborator. */
  mayModerate(comment: CommentRecord, actor: string): boolean {
    return (
      comment.author.toLowerCase() === actor.toLowerCase() ||
      TRUSTED.includes(this.association(actor, comment.repo))
    );
  }

  private touch(issue: IssueRecord): void {
    issue.updatedAt = this.timestamp();
  }
}

/** GitHub's 422 body: `{ message: 'Validation Failed', errors: [{ resource, field, code }] }`. */
export function validationFailed(resource: string, field: string, code: string): HttpError {
  return new HttpError(422, 'Validation Failed', { errors: [{ resource, code, field }] });
}
