import type { ProbotOctokit } from 'probot';
import type { DecideConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import type { LinkedPull, PeopleFacts, Role } from '../claims/people-facts.js';
import type { Hint } from '../claims/types.js';
import type { ReadCache } from '../github/conditional.js';
import { readAssignable } from '../github/read-assignable.js';
import { readMembership } from '../github/read-membership.js';
import { readRole } from '../github/read-role.js';
import { readTimeline } from '../github/read-timeline.js';
import type { IssueMeta, PlusOnes } from '../github/thread.js';
import { type IssueKey, issueRef } from '../keys.js';
import { peopleReads } from '../people/people-reads.js';
import { personClaimsElsewhere } from '../read-model/held-elsewhere.js';
import type { Store } from '../store/store.js';
import { withHolderHead } from './hosted-head.js';
import { reactedCommands } from './reacted-commands.js';

/** What gathering people's facts reads with: the installation's octokit and read cache. */
interface PeopleReadDeps {
  readonly octokit: ProbotOctokit;
  readonly reads: ReadCache;
  readonly store: Pick<Store, 'openIssues' | 'issueClaim'>;
  readonly appLogin: string;
  readonly now: Date;
}

/** The thread as the reconcile read it, with what people's facts need besides decide's. */
export interface PeopleThread {
  readonly meta: IssueMeta;
  readonly plusOnes: PlusOnes;
}

/**
 * Reads what people's claims need of GitHub for one issue (docs/protocol.md §16), and only
 * that, as `peopleReads` asks: the timeline when an assignee is unexplained or a command
 * needs the holder's start (conditional), the roles and memberships of the logins named (kept
 * minutes), whether GitHub can assign the people a triager's `/claim @login` names, the app's
 * 👍 on commands that carry any, and the other issues each login holds
 * from the open-issue index (no call). With people's claims off, only what a hosted agent's
 * claim needs (docs/protocol.md §18), and only when one may exist; undefined otherwise:
 * nothing is read, and the decision is part two's exactly. Any failure throws
 * UnverifiableError (fail closed).
 */
export async function peopleFactsFor(
  deps: PeopleReadDeps,
  key: IssueKey,
  facts: IssueFacts & PeopleThread,
  config: DecideConfig,
): Promise<PeopleFacts | undefined> {
  const { people } = config;
  const hostedOn = (config.hosted ?? []).length > 0;
  if (!people && !hostedOn) return undefined;
  const { octokit, reads, now } = deps;
  const first = peopleReads(facts, config, now);
  // docs/protocol.md §18: a hosted agent that held at the last reconcile may hold on its pull
  // request alone, which only the timeline shows (the index says so without a call).
  const indexed = hostedOn ? await deps.store.issueClaim(key) : null;
  const hostedHeld = indexed?.kind === 'hosted';
  // People's claims off: only a hosted signal is weighed; an issue with none is part two's.
  if (!people && !first.timeline && !hostedHeld) return undefined;
  const timeline = first.timeline || hostedHeld ? await readTimeline(octokit, key, reads) : null;
  // With the timeline read, the decision also asks about whoever made each assignment.
  const needs = timeline ? peopleReads(facts, config, now, timeline.assignments) : first;
  const logins = distinct(needs.logins);
  const roles = new Map<string, Role>();
  const members = new Set<string>();
  for (const login of logins) {
    // A bot (the app's own assignments, say) holds no role on a repository: no call.
    roles.set(
      login,
      isBot(login, facts.bots) ? 'none' : await readRole(octokit, reads, key, login),
    );
    if (needs.members && (await readMembership(octokit, reads, key, login))) members.add(login);
  }
  const heldElsewhere =
    people && people.maxClaims > 0
      ? await personClaimsElsewhere(deps.store, key, logins, now)
      : new Map<string, readonly string[]>();
  const unassignable = new Set<string>();
  for (const login of needs.assignable) {
    if (!(await readAssignable(octokit, reads, key, login))) unassignable.add(login);
  }
  const slug = deps.appLogin.replace(/\[bot\]$/i, '');
  return withHolderHead(deps, key, facts, config, {
    timeline: timeline?.assignments ?? null,
    pulls: withKnownHeads(withHintedPulls(timeline?.pulls ?? [], facts.hints), indexed),
    roles,
    members,
    heldElsewhere,
    reacted: await reactedCommands(deps, key, needs.reactions, facts.plusOnes),
    unassignable,
    appSlug: slug,
    issue: issueRef(key),
    issueUrl: facts.meta.url,
    createdAt: new Date(facts.meta.createdAt),
  });
}

/** A `[bot]` login, or one GitHub typed `Bot` on the issue. */
function isBot(login: string, bots: readonly string[] = []): boolean {
  return login.endsWith('[bot]') || bots.some((bot) => bot.toLowerCase() === login);
}

/** The logins lowercased, each once, in the order first named. */
function distinct(logins: readonly string[]): string[] {
  return [...new Set(logins.map((login) => login.toLowerCase()))];
}

/**
 * docs/protocol.md §18: the pull requests the timeline lists, with those a `pull_request`
 * event told of (fresher, and naming the head branch, which the timeline never does); of two
 * snapshots of one pull request the later `updated_at` counts.
 */
function withHintedPulls(pulls: readonly LinkedPull[], hints: readonly Hint[]): LinkedPull[] {
  const out = [...pulls];
  for (const hint of hints) {
    if (hint.kind !== 'hosted-pull') continue;
    const told: LinkedPull = {
      author: hint.author,
      updatedAt: new Date(hint.updatedAt),
      open: hint.open,
      number: hint.number,
      body: hint.body,
      createdAt: new Date(hint.createdAt),
      sameRepo: true,
      head: hint.head,
      url: hint.url,
    };
    const at = out.findIndex((pull) => pull.number === hint.number);
    if (at === -1) out.push(told);
    else {
      const known = out[at]!;
      out[at] =
        known.updatedAt.getTime() > told.updatedAt.getTime()
          ? { ...known, head: hint.head }
          : { ...told, url: known.url ?? told.url };
    }
  }
  return out;
}

/** The head branch the index kept for a hosted agent's pull request, which the timeline omits. */
function withKnownHeads(
  pulls: readonly LinkedPull[],
  indexed: { readonly kind?: string; readonly url: string; readonly branch: string | null } | null,
): LinkedPull[] {
  if (indexed?.kind !== 'hosted' || indexed.branch === null) return [...pulls];
  const branch = indexed.branch;
  return pulls.map((pull) =>
    pull.head === undefined && pull.url !== undefined && pull.url === indexed.url
      ? { ...pull, head: branch }
      : pull,
  );
}
