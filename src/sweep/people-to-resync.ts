import { hasName, sameName } from '../claims/names.js';
import type { IssueKey } from '../keys.js';
import { parseCommand } from '../people/commands.js';
import type { Store } from '../store/store.js';
import { markedIssueNumber } from './marked-issue-number.js';

/**
 * Per comment of the resync's repository-wide listing (docs/protocol.md §4, §16): its issue
 * number when it carries a claim marker, the number negated when it carries a person's
 * command (the reconcile runs it, or answers it, once), else 0. Numbers, as the kept pages of
 * earlier versions hold them (a marker's number), so a page answered 304 still reads.
 */
export function resyncedNumbers(slug: string) {
  return (data: unknown): number[] =>
    (data as ListedComment[]).map((comment) => {
      const marked = markedIssueNumber(comment);
      if (marked !== null) return marked;
      const number = issueNumberOf(comment.issue_url);
      if (number === null) return 0;
      if (parseCommand(comment.body ?? '', slug) === null) return 0;
      return isBotAccount(comment.user) ? 0 : -number;
    });
}

/** A comment of `GET /repos/{o}/{r}/issues/comments`, as far as the resync reads it. */
interface ListedComment {
  readonly body?: string | null;
  readonly issue_url: string;
  readonly user?: { readonly login: string; readonly type?: string } | null;
}

function issueNumberOf(url: string): number | null {
  const number = Number(/\/issues\/(\d+)$/.exec(url)?.[1]);
  return Number.isInteger(number) && number > 0 ? number : null;
}

function isBotAccount(user: ListedComment['user']): boolean {
  return !user || user.type === 'Bot' || user.login.toLowerCase().endsWith('[bot]');
}

/**
 * docs/protocol.md §16: the open issues of `repo`, as the index just listed them, with an
 * assignee that no claim the app knows of accounts for: not the author of the claim indexed
 * for the issue (an agent's or a person's), not an assignment the app remembers making for a
 * claim, not a `[bot]`. A person assigned while the app was away (or before it was
 * installed) holds a claim that only a reconcile sees. With `since` (the repository's
 * checkpoint), only issues GitHub updated since then: an assignment moves `updated_at`, and
 * older ones were seen by the pass before. `counts`: the assignees looked at (default all;
 * with people's claims off, the hosted agents, docs/protocol.md §18).
 */
export async function unexplainedAssignees(
  store: Pick<Store, 'openIssues' | 'appAssignees'>,
  repo: Omit<IssueKey, 'number'>,
  since: Date | null,
  counts: (login: string) => boolean = () => true,
): Promise<number[]> {
  const numbers: number[] = [];
  for (const { issue, claim } of await store.openIssues()) {
    const { key } = issue;
    if (key.installationId !== repo.installationId) continue;
    if (!sameName(key.owner, repo.owner) || !sameName(key.repo, repo.repo)) continue;
    if (since !== null && Date.parse(issue.updatedAt) < since.getTime()) continue;
    const people = issue.assignees.filter(
      (login) =>
        counts(login) &&
        !login.toLowerCase().endsWith('[bot]') &&
        !(claim && sameName(claim.author, login)),
    );
    if (people.length === 0) continue;
    const remembered = await store.appAssignees(key);
    if (people.every((login) => hasName(remembered, login))) continue;
    numbers.push(key.number);
  }
  return numbers.sort((a, b) => a - b);
}
