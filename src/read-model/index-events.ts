import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import { formatClaimTime } from '../claims/marker.js';
import { conditionalPages } from '../github/conditional.js';
import type { IssueKey, RepoKey } from '../keys.js';
import { issueRef } from '../keys.js';
import type { IndexedIssue, Store } from '../store/store.js';

/** The fields of a webhook's or the REST API's issue the index keeps. */
interface IssuePayload {
  readonly number: number;
  readonly title: string;
  readonly html_url: string;
  readonly state?: string;
  readonly labels?: ReadonlyArray<string | { readonly name?: string }>;
  readonly assignees?: ReadonlyArray<{ readonly login: string } | null> | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly pull_request?: unknown;
}

/** An issue as GitHub renders it, as the index keeps it; null for a pull request. */
function indexedIssueFromPayload(where: RepoKey, issue: IssuePayload): IndexedIssue | null {
  if (issue.pull_request !== undefined && issue.pull_request !== null) return null;
  return {
    key: { ...where, number: issue.number },
    title: issue.title,
    url: issue.html_url,
    labels: (issue.labels ?? [])
      .map((l) => (typeof l === 'string' ? l : (l.name ?? '')))
      .filter(Boolean),
    assignees: (issue.assignees ?? []).flatMap((a) => (a ? [a.login] : [])),
    createdAt: formatClaimTime(new Date(issue.created_at)),
    updatedAt: formatClaimTime(new Date(issue.updated_at)),
  };
}

interface IssuesEvent {
  readonly action: string;
  readonly installation?: { readonly id: number };
  readonly repository: { readonly name: string; readonly owner: { readonly login: string } };
  readonly issue: IssuePayload;
  readonly changes?: {
    readonly new_issue?: IssuePayload;
    readonly new_repository?: {
      readonly name: string;
      readonly owner?: { readonly login: string };
    };
  };
}

/**
 * Keeps the work queue's index true to an `issues` event (docs/protocol.md §9), from the
 * payload alone: no GitHub call, the app's own echoes included (its label and assignee writes
 * change what the queue shows). Late deliveries cannot move an issue backwards (the store
 * keeps the newest `updated_at`). Errors are logged: the resync rebuilds the index.
 */
export async function indexIssuesEvent(store: Store, log: Logger, payload: unknown): Promise<void> {
  const event = payload as IssuesEvent;
  const installationId = event.installation?.id;
  const owner = event.repository?.owner?.login;
  if (installationId === undefined || typeof event.issue?.number !== 'number' || !owner) return;
  const where: RepoKey = { installationId, owner, repo: event.repository.name };
  const key: IssueKey = { ...where, number: event.issue.number };
  try {
    if (event.action === 'transferred') {
      await store.dropOpenIssue(key);
      const moved = event.changes?.new_issue;
      const to = event.changes?.new_repository;
      const toOwner = to?.owner?.login;
      if (moved && to && toOwner && moved.state === 'open') {
        const entry = indexedIssueFromPayload(
          { installationId, owner: toOwner, repo: to.name },
          moved,
        );
        if (entry) await store.putOpenIssue(entry);
      }
      return;
    }
    if (event.action === 'deleted' || event.issue.state !== 'open') {
      await store.dropOpenIssue(key);
      return;
    }
    const entry = indexedIssueFromPayload(where, event.issue);
    if (entry) await store.putOpenIssue(entry);
  } catch (err) {
    log.warn({ err, issue: issueRef(key) }, 'work queue index not updated');
  }
}

/**
 * docs/protocol.md §12: the resync lists the repository's open issues for the index, 100 a
 * page; issues closed while the app was away leave it. Throws when GitHub fails (the
 * repository's resync is retried next time). The listing is conditional on the token
 * `scope`'s kept reads (docs/api-budget.md): a page GitHub answers 304 costs no rate limit,
 * and its issues are those kept from the read before.
 */
export async function indexOpenIssues(
  store: Store,
  octokit: ProbotOctokit,
  repo: RepoKey,
  listedAt: Date,
  scope: string,
): Promise<number> {
  const entries: IndexedIssue[] = [];
  const pick = (data: unknown): IndexedIssue[] =>
    (data as IssuePayload[]).flatMap((issue) => {
      const entry = indexedIssueFromPayload(repo, issue);
      return entry ? [entry] : [];
    });
  const pages = conditionalPages(
    octokit,
    store,
    scope,
    'GET /repos/{owner}/{repo}/issues',
    { owner: repo.owner, repo: repo.repo, state: 'open', per_page: 100 },
    pick,
  );
  for await (const page of pages) entries.push(...page.items);
  await store.replaceOpenIssues(repo, entries, listedAt);
  return entries.length;
}
