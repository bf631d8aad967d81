/**
 * Branches and their commits for the GitHub fake (docs/protocol.md §17, review of stale work):
 * `GET /repos/{o}/{r}/compare/{basehead}` between the default branch and a branch made with
 * `createBranch` (N commits ahead, a head SHA), and the pull-request list with its `head` and
 * `state` filters. A branch never created answers the compare 404, as GitHub does.
 */
import { type PullRecord, type PullRouteDeps, pullJson } from './pulls.js';
import { paginate, type Route, type RouteContext, route } from './router.js';
import { HttpError, type RepoRecord } from './state.js';

/** A branch as the fake keeps it: the commits it has that the default branch lacks. */
export interface BranchRecord {
  readonly repo: string;
  readonly name: string;
  /** Oldest first; the last is the head. */
  readonly ahead: string[];
  /** The commit it forked from (the default branch's head). */
  readonly base: string;
}

/** The branches of every repository, by `owner/name#branch` (lower case repository). */
export class BranchesModel {
  readonly branches = new Map<string, BranchRecord>();

  branch(repo: string, name: string): BranchRecord | undefined {
    return this.branches.get(`${repo.toLowerCase()}#${name}`);
  }

  add(record: BranchRecord): void {
    this.branches.set(`${record.repo.toLowerCase()}#${record.name}`, record);
  }
}

type Json = Record<string, unknown>;

/** The compare and pull-list endpoints. */
export function branchRoutes(deps: PullRouteDeps, branches: BranchesModel): Route[] {
  /** As pulls.ts reads: 404 for a repository the caller may not see. */
  function repoOf(ctx: RouteContext): RepoRecord {
    const repo = deps.state.findRepo(`${ctx.params.owner}/${ctx.params.repo}`);
    if (!repo) throw new HttpError(404, 'Not Found');
    const auth = ctx.auth;
    const foreign = auth.kind === 'installation' && repo.installationId !== auth.installationId;
    if (repo.private && (foreign || auth.kind === 'anonymous')) {
      throw new HttpError(404, 'Not Found');
    }
    return repo;
  }

  const commitJson = (repo: RepoRecord, sha: string, parent: string): Json => ({
    sha,
    node_id: `C_${sha.slice(0, 12)}`,
    url: `${deps.apiUrl()}/repos/${repo.fullName}/commits/${sha}`,
    html_url: `${deps.htmlUrl()}/${repo.fullName}/commit/${sha}`,
    comments_url: `${deps.apiUrl()}/repos/${repo.fullName}/commits/${sha}/comments`,
    commit: {
      url: `${deps.apiUrl()}/repos/${repo.fullName}/git/commits/${sha}`,
      message: `commit ${sha.slice(0, 7)}`,
      comment_count: 0,
      tree: { sha, url: `${deps.apiUrl()}/repos/${repo.fullName}/git/trees/${sha}` },
      author: null,
      committer: null,
    },
    author: null,
    committer: null,
    parents: [{ sha: parent, url: `${deps.apiUrl()}/repos/${repo.fullName}/commits/${parent}` }],
  });
  return [
    route('GET', '/repos/:owner/:repo/compare/*basehead', (ctx) => {
      const repo = repoOf(ctx);
      const match = /^(.+?)\.\.\.(.+)$/.exec(ctx.params.basehead ?? '');
      if (!match) throw new HttpError(404, 'Not Found');
      const [, base, head] = match as unknown as [string, string, string];
      const branch = branches.branch(repo.fullName, head);
      if (base !== 'main' || !branch) throw new HttpError(404, 'Not Found');
      const commits = branch.ahead.map((sha, i) =>
        commitJson(repo, sha, i === 0 ? branch.base : branch.ahead[i - 1]!),
      );
      const html = `${deps.htmlUrl()}/${repo.fullName}/compare/${base}...${head}`;
      return {
        status: 200,
        body: {
          url: `${deps.apiUrl()}/repos/${repo.fullName}/compare/${base}...${head}`,
          html_url: html,
          permalink_url: html,
          diff_url: `${html}.diff`,
          patch_url: `${html}.patch`,
          base_commit: commitJson(repo, branch.base, branch.base),
          merge_base_commit: commitJson(repo, branch.base, branch.base),
          status: branch.ahead.length > 0 ? 'ahead' : 'identical',
          ahead_by: branch.ahead.length,
          behind_by: 0,
          total_commits: branch.ahead.length,
          // GitHub lists at most 250 unpaged, the newest last.
          commits: commits.slice(-250),
          files: [],
        },
      };
    }),
    route('GET', '/repos/:owner/:repo/pulls', (ctx) => {
      const repo = repoOf(ctx);
      const state = ctx.query.get('state') ?? 'open';
      const head = ctx.query.get('head');
      const listed: PullRecord[] = [...deps.pulls.pulls.values()]
        .filter((pull) => pull.issue.repo.toLowerCase() === repo.fullName.toLowerCase())
        .filter((pull) => state === 'all' || pull.issue.state === state)
        .filter((pull) => {
          if (!head) return true;
          const owner = deps.state.repo(pull.head.repo).owner;
          return `${owner}:${pull.head.ref}`.toLowerCase() === head.toLowerCase();
        })
        .sort((a, b) => b.issue.number - a.issue.number);
      const { items, link } = paginate(listed, ctx.query, `${deps.apiUrl()}${ctx.path}`);
      return {
        status: 200,
        body: items.map((pull) => pullJson(deps, pull)),
        ...(link ? { headers: { link } } : {}),
      };
    }),
  ];
}
