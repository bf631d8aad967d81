/**
 * JSON shapes of the GitHub REST API and of webhook payloads, rendered from the fake's model.
 * Field names and nesting follow docs.github.com/rest (API version 2022-11-28); URL fields
 * point at the fake so a client following them stays on loopback.
 */
import { reactionRollup } from './people.js';
import type {
  Association,
  Change,
  CommentRecord,
  InstallationRecord,
  IssueRecord,
  LabelRecord,
  RepoRecord,
  State,
  UserRecord,
  UserType,
} from './state.js';

/** The GitHub App the fake pretends to be. */
export interface AppIdentity {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
  readonly owner: string;
}

/** A webhook event rendered from a change: what GitHub would deliver. */
export interface WebhookEvent {
  readonly event: string;
  readonly action: string;
  readonly payload: Record<string, unknown>;
}

/** Permissions app.yml asks for (docs/protocol.md §7). */
const PERMISSIONS = {
  issues: 'write',
  metadata: 'read',
  contents: 'read',
  checks: 'write',
  pull_requests: 'read',
} as const;
const EVENTS = ['issue_comment', 'issues', 'pull_request', 'push'] as const;

type Json = Record<string, unknown>;

/** A user as GitHub renders it (main fields typed; the rest is there too). */
export interface UserJson extends Json {
  login: string;
  id: number;
  node_id: string;
  type: UserType;
}

/** A repository label as GitHub renders it. */
export interface LabelJson extends Json {
  id: number;
  node_id: string;
  url: string;
  name: string;
  color: string;
  default: boolean;
  description: string | null;
}

/** An issue as GitHub renders it (main fields typed). */
export interface IssueJson extends Json {
  id: number;
  number: number;
  title: string;
  body: string | null;
  user: UserJson;
  state: 'open' | 'closed';
  state_reason: 'completed' | 'not_planned' | 'reopened' | null;
  labels: LabelJson[];
  assignee: UserJson | null;
  assignees: UserJson[];
  comments: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  author_association: Association;
}

/** An issue comment as GitHub renders it (main fields typed). */
export interface CommentJson extends Json {
  id: number;
  node_id: string;
  url: string;
  html_url: string;
  issue_url: string;
  body: string;
  user: UserJson;
  created_at: string;
  updated_at: string;
  author_association: Association;
  performed_via_github_app: Json | null;
}

function nodeId(prefix: string, id: number): string {
  return `${prefix}_kwDO${Buffer.from(String(id)).toString('base64url')}`;
}

/** Renders model records as GitHub JSON. */
export interface Payloads {
  user(login: string): UserJson;
  repository(repo: RepoRecord): Json;
  label(repo: RepoRecord, label: LabelRecord): LabelJson;
  issue(issue: IssueRecord): IssueJson;
  comment(comment: CommentRecord): CommentJson;
  app(): Json;
  installation(installation: InstallationRecord): Json;
  /** The webhook GitHub would deliver for a change, or undefined when the app is not installed. */
  webhook(change: Change): WebhookEvent | undefined;
}

/** Builds the renderers for one fake; `apiUrl` ends in `/api/v3`, `htmlUrl` is the host root. */
export function createPayloads(
  state: State,
  urls: { apiUrl: string; htmlUrl: string },
  app: AppIdentity,
): Payloads {
  const { apiUrl, htmlUrl } = urls;
  const botLogin = `${app.slug}[bot]`;

  function userJson(record: UserRecord): UserJson {
    const isApp = record.login.toLowerCase() === botLogin.toLowerCase();
    return {
      login: record.login,
      id: record.id,
      node_id: nodeId(
        record.type === 'Bot' ? 'BOT' : record.type === 'User' ? 'U' : 'O',
        record.id,
      ),
      avatar_url: `https://avatars.githubusercontent.com/u/${record.id}?v=4`,
      gravatar_id: '',
      url: `${apiUrl}/users/${encodeURIComponent(record.login)}`,
      html_url: isApp
        ? `${htmlUrl}/apps/${app.slug}`
        : `${htmlUrl}/${encodeURIComponent(record.login)}`,
      type: record.type,
      user_view_type: 'public',
      site_admin: false,
    };
  }

  function user(login: string): UserJson {
    return userJson(state.user(login));
  }

  function repoUrl(fullName: string): string {
    return `${apiUrl}/repos/${fullName}`;
  }

  function repository(repo: RepoRecord): Json {
    const openIssues = [...repo.issues.values()].filter((i) => i.state === 'open').length;
    return {
      id: repo.id,
      node_id: nodeId('R', repo.id),
      name: repo.name,
      full_name: repo.fullName,
      private: repo.private,
      owner: user(repo.owner),
      html_url: `${htmlUrl}/${repo.fullName}`,
      description: null,
      fork: false,
      url: repoUrl(repo.fullName),
      issues_url: `${repoUrl(repo.fullName)}/issues{/number}`,
      labels_url: `${repoUrl(repo.fullName)}/labels{/name}`,
      created_at: repo.createdAt,
      updated_at: repo.createdAt,
      pushed_at: repo.createdAt,
      has_issues: true,
      archived: false,
      disabled: false,
      visibility: repo.private ? 'private' : 'public',
      open_issues_count: openIssues,
      open_issues: openIssues,
      topics: [],
      default_branch: 'main',
    };
  }

  function label(repo: RepoRecord, record: LabelRecord): LabelJson {
    return {
      id: record.id,
      node_id: nodeId('LA', record.id),
      url: `${repoUrl(repo.fullName)}/labels/${encodeURIComponent(record.name)}`,
      name: record.name,
      color: record.color,
      default: false,
      description: record.description,
    };
  }

  function issue(record: IssueRecord): IssueJson {
    const repo = state.repo(record.repo);
    const base = `${repoUrl(repo.fullName)}/issues/${record.number}`;
    const html = `${htmlUrl}/${repo.fullName}/${record.isPullRequest ? 'pull' : 'issues'}/${record.number}`;
    const assignees = record.assignees.map(user);
    const json: IssueJson = {
      url: base,
      repository_url: repoUrl(repo.fullName),
      labels_url: `${base}/labels{/name}`,
      comments_url: `${base}/comments`,
      events_url: `${base}/events`,
      html_url: html,
      id: record.id,
      node_id: nodeId(record.isPullRequest ? 'PR' : 'I', record.id),
      number: record.number,
      title: record.title,
      user: user(record.author),
      labels: record.labels.flatMap((name) => {
        const found = state.findLabel(repo, name);
        return found ? [label(repo, found)] : [];
      }),
      state: record.state,
      locked: false,
      assignee: assignees[0] ?? null,
      assignees,
      milestone: null,
      comments: record.commentIds.length,
      created_at: record.createdAt,
      updated_at: record.updatedAt,
      closed_at: record.closedAt,
      author_association: state.association(record.author, repo.fullName),
      active_lock_reason: null,
      body: record.body,
      closed_by: record.closedBy ? user(record.closedBy) : null,
      timeline_url: `${base}/timeline`,
      performed_via_github_app: null,
      state_reason: record.stateReason,
    };
    if (record.isPullRequest) {
      // The issues API marks a pull request only by this key (docs: "List repository issues").
      json.draft = false;
      json.pull_request = {
        url: `${repoUrl(repo.fullName)}/pulls/${record.number}`,
        html_url: html,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        merged_at: null,
      };
    }
    return json;
  }

  function comment(record: CommentRecord): CommentJson {
    const parent = state.repo(record.repo).issues.get(record.issueNumber);
    const kind = parent?.isPullRequest ? 'pull' : 'issues';
    return {
      url: `${repoUrl(record.repo)}/issues/comments/${record.id}`,
      html_url: `${htmlUrl}/${record.repo}/${kind}/${record.issueNumber}#issuecomment-${record.id}`,
      issue_url: `${repoUrl(record.repo)}/issues/${record.issueNumber}`,
      id: record.id,
      node_id: nodeId('IC', record.id),
      user: user(record.author),
      created_at: record.createdAt,
      updated_at: record.updatedAt,
      author_association: state.association(record.author, record.repo),
      body: record.body,
      reactions: reactionRollup(
        record,
        `${repoUrl(record.repo)}/issues/comments/${record.id}/reactions`,
      ),
      performed_via_github_app: record.viaApp ? appJson() : null,
    };
  }

  function appJson(): Json {
    return {
      id: app.id,
      client_id: `Iv1.${app.id.toString(16).padStart(16, '0')}`,
      slug: app.slug,
      node_id: nodeId('A', app.id),
      owner: user(app.owner),
      name: app.name,
      description: 'Enforces issue claims.',
      external_url: `${htmlUrl}/apps/${app.slug}`,
      html_url: `${htmlUrl}/apps/${app.slug}`,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      permissions: PERMISSIONS,
      events: EVENTS,
      installations_count: state.installations.size,
    };
  }

  function installation(record: InstallationRecord): Json {
    const account = state.user(record.account);
    return {
      id: record.id,
      client_id: `Iv1.${app.id.toString(16).padStart(16, '0')}`,
      account: userJson(account),
      repository_selection: 'selected',
      access_tokens_url: `${apiUrl}/app/installations/${record.id}/access_tokens`,
      repositories_url: `${apiUrl}/installation/repositories`,
      html_url: `${htmlUrl}/organizations/${account.login}/settings/installations/${record.id}`,
      app_id: app.id,
      app_slug: app.slug,
      target_id: account.id,
      target_type: record.accountType,
      permissions: PERMISSIONS,
      events: EVENTS,
      created_at: record.createdAt,
      updated_at: record.createdAt,
      single_file_name: null,
      has_multiple_single_files: false,
      single_file_paths: [],
      suspended_by: null,
      suspended_at: null,
    };
  }

  function repoSummary(repo: RepoRecord): Json {
    return {
      id: repo.id,
      node_id: nodeId('R', repo.id),
      name: repo.name,
      full_name: repo.fullName,
      private: repo.private,
    };
  }

  /** Fields every repository-scoped delivery carries. */
  function envelope(repo: RepoRecord, installationId: number, actor: string): Json {
    const json: Json = {
      repository: repository(repo),
      sender: user(actor),
      installation: {
        id: installationId,
        // GitHub's legacy global id for installations: base64 of "023:IntegrationInstallation<id>".
        node_id: Buffer.from(`023:IntegrationInstallation${installationId}`).toString('base64'),
      },
    };
    const owner = state.user(repo.owner);
    if (owner.type === 'Organization') {
      json.organization = {
        login: owner.login,
        id: owner.id,
        node_id: nodeId('O', owner.id),
        url: `${apiUrl}/orgs/${owner.login}`,
        description: null,
      };
    }
    return json;
  }

  function webhook(change: Change): WebhookEvent | undefined {
    if (change.kind === 'installation') {
      return {
        event: 'installation',
        action: change.action,
        payload: {
          action: change.action,
          installation: installation(change.installation),
          repositories: state.reposOf(change.installation.id).map(repoSummary),
          requester: null,
          sender: user(change.actor),
        },
      };
    }
    if (change.kind === 'installation_repositories') {
      return {
        event: 'installation_repositories',
        action: change.action,
        payload: {
          action: change.action,
          installation: installation(change.installation),
          repository_selection: 'selected',
          repositories_added: change.repos.map(repoSummary),
          repositories_removed: [],
          requester: null,
          sender: user(change.actor),
        },
      };
    }
    const repo = state.repo(change.issue.repo);
    // GitHub delivers an app's webhooks only for repositories it is installed on.
    if (repo.installationId === null) return undefined;
    const head = { action: change.action, issue: issue(change.issue) };
    const tail = envelope(repo, repo.installationId, change.actor);
    let extra: Json = {};
    if (change.kind === 'issue_comment') {
      extra = { comment: comment(change.comment) };
      if (change.action === 'edited') extra.changes = change.changes;
    } else if (change.action === 'labeled' || change.action === 'unlabeled') {
      extra = { label: label(repo, change.label) };
    } else if (change.action === 'assigned' || change.action === 'unassigned') {
      extra = { assignee: user(change.assignee) };
    } else if (change.action === 'edited') {
      extra = { changes: change.changes };
    } else if (change.action === 'transferred') {
      const target = state.repo(change.newIssue.repo);
      extra = {
        changes: { new_issue: issue(change.newIssue), new_repository: repository(target) },
      };
    }
    return {
      event: change.kind,
      action: change.action,
      payload: { ...head, ...extra, ...tail },
    };
  }

  return {
    user,
    repository,
    label,
    issue,
    comment,
    app: appJson,
    installation,
    webhook,
  };
}
