import type { ProbotOctokit } from 'probot';
import type { AssignmentEvent, LinkedPull } from '../claims/people-facts.js';
import type { IssueKey } from '../keys.js';
import { conditionalGet, nextLink, type ReadCache } from './conditional.js';
import { statusOf, UnverifiableError } from './errors.js';

/**
 * The most timeline events read before the issue counts as unverifiable (docs/protocol.md
 * §6): its comments alone may be 3,000 (MAX_THREAD_COMMENTS), and labels, assignments and
 * references come on top.
 */
const MAX_TIMELINE_EVENTS = 10_000;

const PER_PAGE = 100;

/** As the thread's reads: an ETag outlives no installation token (docs/api-budget.md). */
const TIMELINE_READ_TTL_MS = 3_600_000;

/** What people's claims read of an issue's timeline (docs/protocol.md §16). */
interface IssueTimeline {
  /** Its `assigned` and `unassigned` events, oldest first. */
  readonly assignments: readonly AssignmentEvent[];
  /** The pull requests that mention the issue (`cross-referenced`), as they are now. */
  readonly pulls: readonly LinkedPull[];
}

/** One timeline event, reduced to what is kept (JSON: times as text). */
type KeptEvent =
  | {
      readonly e: 'assigned' | 'unassigned';
      readonly login: string;
      readonly actor: string;
      readonly at: string;
    }
  | {
      readonly e: 'pull';
      readonly author: string;
      readonly updatedAt: string;
      readonly open: boolean;
      // docs/protocol.md §18: what tells a hosted agent's claim (absent in older kept pages).
      readonly number?: number;
      readonly body?: string;
      readonly createdAt?: string;
      readonly repositoryUrl?: string;
      readonly url?: string;
    };

/** A page as kept: its events, how many GitHub listed, and the next page. */
interface KeptPage {
  readonly events: readonly KeptEvent[];
  readonly listed: number;
  readonly next: string | null;
}

/**
 * Reads the issue's timeline (`GET /repos/{o}/{r}/issues/{n}/timeline`), 100 a page, each page
 * conditional with the installation's read cache, so an unchanged timeline costs 304s only.
 * Fails closed (docs/protocol.md §6): any GitHub error, or a timeline past
 * {@link MAX_TIMELINE_EVENTS}, throws UnverifiableError.
 */
export async function readTimeline(
  octokit: ProbotOctokit,
  key: IssueKey,
  cache: ReadCache,
): Promise<IssueTimeline> {
  try {
    let pages = await readPages(octokit, key, cache, false);
    // A page's ETag covers its body, not its Link header: a full last page answered 304
    // keeps "no next page" after an event was added behind it, so it is read again in full.
    const last = pages.at(-1);
    if (last?.kept && last.page.listed >= PER_PAGE)
      pages = await readPages(octokit, key, cache, true);
    return timelineOf(
      pages.flatMap(({ page }) => page.events),
      key,
    );
  } catch (error) {
    if (error instanceof UnverifiableError) throw error;
    throw new UnverifiableError('could not read the timeline', key, statusOf(error), {
      cause: error,
    });
  }
}

async function readPages(
  octokit: ProbotOctokit,
  key: IssueKey,
  cache: ReadCache,
  fresh: boolean,
): Promise<{ page: KeptPage; kept: boolean }[]> {
  const pages: { page: KeptPage; kept: boolean }[] = [];
  let route = 'GET /repos/{owner}/{repo}/issues/{issue_number}/timeline';
  let params: Record<string, string | number> = {
    owner: key.owner,
    repo: key.repo,
    issue_number: key.number,
    per_page: PER_PAGE,
  };
  let listed = 0;
  for (;;) {
    const answer = await conditionalGet(octokit, cache, route, params, keepPage, {
      ttlMs: TIMELINE_READ_TTL_MS,
      fresh,
    });
    pages.push({ page: answer.value, kept: !answer.changed });
    listed += answer.value.listed;
    if (listed > MAX_TIMELINE_EVENTS) {
      throw new UnverifiableError(`the timeline has more than ${MAX_TIMELINE_EVENTS} events`, key);
    }
    if (answer.value.next === null) return pages;
    route = `GET ${answer.value.next}`;
    params = {};
  }
}

/** The fields of timeline events GitHub returns that are read. */
interface GitHubTimelineEvent {
  readonly event?: string;
  readonly created_at?: string;
  readonly actor?: { readonly login?: string } | null;
  readonly assignee?: { readonly login?: string } | null;
  readonly source?: {
    readonly issue?: {
      readonly number?: number;
      readonly user?: { readonly login?: string } | null;
      readonly state?: string;
      readonly body?: string | null;
      readonly created_at?: string;
      readonly updated_at?: string;
      readonly repository_url?: string;
      readonly html_url?: string;
      readonly pull_request?: unknown;
    };
  };
}

function keepPage(response: { data: unknown; headers: { link?: string } }): KeptPage {
  const data = Array.isArray(response.data) ? (response.data as GitHubTimelineEvent[]) : [];
  return {
    events: data.flatMap(keptEvent),
    listed: data.length,
    next: nextLink(response.headers.link),
  };
}

function keptEvent(event: GitHubTimelineEvent): KeptEvent[] {
  if (event.event === 'assigned' || event.event === 'unassigned') {
    const login = event.assignee?.login;
    if (!login || !event.created_at) return [];
    return [{ e: event.event, login, actor: event.actor?.login ?? '', at: event.created_at }];
  }
  const source = event.source?.issue;
  // A mention by a pull request; mentions by other issues say nothing of anyone's work.
  if (event.event !== 'cross-referenced' || !source?.pull_request) return [];
  const author = source.user?.login;
  if (!author || !source.updated_at) return [];
  return [
    {
      e: 'pull',
      author,
      updatedAt: source.updated_at,
      open: source.state === 'open',
      ...(source.number !== undefined ? { number: source.number } : {}),
      ...(source.body ? { body: source.body } : {}),
      ...(source.created_at ? { createdAt: source.created_at } : {}),
      ...(source.repository_url ? { repositoryUrl: source.repository_url } : {}),
      ...(source.html_url ? { url: source.html_url } : {}),
    },
  ];
}

function timelineOf(events: readonly KeptEvent[], key: IssueKey): IssueTimeline {
  const assignments: AssignmentEvent[] = [];
  const pulls: LinkedPull[] = [];
  const ownRepo = `/repos/${key.owner}/${key.repo}`.toLowerCase();
  for (const event of events) {
    if (event.e === 'pull') {
      pulls.push({
        author: event.author,
        updatedAt: new Date(event.updatedAt),
        open: event.open,
        ...(event.number !== undefined ? { number: event.number } : {}),
        ...(event.body !== undefined ? { body: event.body } : {}),
        ...(event.createdAt ? { createdAt: new Date(event.createdAt) } : {}),
        ...(event.url ? { url: event.url } : {}),
        // GitHub's `repository_url` ends in `/repos/{owner}/{repo}` (GHES prefixes `/api/v3`).
        ...(event.repositoryUrl
          ? { sameRepo: event.repositoryUrl.toLowerCase().endsWith(ownRepo) }
          : {}),
      });
    } else {
      assignments.push({
        event: event.e,
        login: event.login,
        actor: event.actor,
        at: new Date(event.at),
      });
    }
  }
  return { assignments, pulls };
}
