import type { IssueFacts } from '../claims/issue-facts.js';
import { latestAssignment } from '../claims/latest-assignment.js';
import type { LinkedPull, PeopleFacts } from '../claims/people-facts.js';
import { closingLinks } from './closing-links.js';
import { isHostedLogin } from './hosted-logins.js';

/** A hosted agent's claim (docs/protocol.md §18): its assignment, its open pull request, or both. */
export interface HostedClaim {
  /** As GitHub shows it: the assignee's login, else the pull request's author. */
  readonly login: string;
  /** The earlier of its latest `assigned` event and its pull request's `created_at`. */
  readonly started: Date;
  /** Who assigned it; '' when it is not assigned or the timeline does not say. */
  readonly assignedBy: string;
  /** The assignment's time, when it is assigned. */
  readonly assignedAt: Date | null;
  /** Its oldest open pull request of the repository that closes the issue, if any. */
  readonly pull: LinkedPull | null;
  /** The pull request's `updated_at`, else the assignment. */
  readonly heartbeat: Date;
}

/** `owner/repo` and the number of `owner/repo#n`. */
function issueParts(issue: string): { repo: string; number: number } {
  const at = issue.lastIndexOf('#');
  return { repo: issue.slice(0, at), number: Number(issue.slice(at + 1)) };
}

/** A pull request that stands as a hosted agent's signal: open, here, closing the issue. */
function closesIssue(pull: LinkedPull, issue: string, hosted: readonly string[]): boolean {
  const { repo, number } = issueParts(issue);
  return (
    pull.open &&
    pull.sameRepo === true &&
    pull.number !== undefined &&
    isHostedLogin(pull.author, hosted) &&
    closingLinks(pull.body ?? '', repo).includes(number)
  );
}

const bare = (login: string) => login.toLowerCase().replace(/\[bot\]$/, '');

/**
 * The hosted claims of an issue, oldest first (docs/protocol.md §18): per listed login, its
 * assignment and its open pull requests whose body closes the issue are one claim, started at
 * the earlier. None with `hosted` empty or absent. Pure.
 */
export function hostedClaims(
  facts: Pick<IssueFacts, 'assignees'>,
  people: Pick<PeopleFacts, 'timeline' | 'pulls' | 'issue' | 'createdAt'>,
  hosted: readonly string[] = [],
): HostedClaim[] {
  if (hosted.length === 0) return [];
  const byLogin = new Map<string, { login: string; assigned: boolean; pulls: LinkedPull[] }>();
  const entry = (login: string) => {
    const name = bare(login);
    let found = byLogin.get(name);
    if (!found) {
      found = { login, assigned: false, pulls: [] };
      byLogin.set(name, found);
    }
    return found;
  };
  for (const login of facts.assignees) {
    if (isHostedLogin(login, hosted)) {
      const found = entry(login);
      found.login = login;
      found.assigned = true;
    }
  }
  for (const pull of people.pulls) {
    if (closesIssue(pull, people.issue, hosted)) entry(pull.author).pulls.push(pull);
  }
  const claims: HostedClaim[] = [];
  for (const { login, assigned, pulls } of byLogin.values()) {
    const event = assigned ? latestAssignment(people.timeline, login) : undefined;
    const assignedAt = assigned ? (event?.at ?? people.createdAt) : null;
    const pull = oldest(pulls);
    const starts = [assignedAt, pull ? startOf(pull) : null].filter((d): d is Date => d !== null);
    const started = new Date(Math.min(...starts.map((d) => d.getTime())));
    claims.push({
      login,
      started,
      assignedBy: event?.actor ?? '',
      assignedAt,
      pull,
      heartbeat: pull?.updatedAt ?? assignedAt ?? started,
    });
  }
  return claims.sort(
    (a, b) => a.started.getTime() - b.started.getTime() || a.login.localeCompare(b.login),
  );
}

function startOf(pull: LinkedPull): Date {
  return pull.createdAt ?? pull.updatedAt;
}

function oldest(pulls: readonly LinkedPull[]): LinkedPull | null {
  let first: LinkedPull | null = null;
  for (const pull of pulls) {
    if (first === null || startOf(pull).getTime() < startOf(first).getTime()) first = pull;
  }
  return first;
}
