import { graceUntilOf } from '../claims/grace.js';
import { markdownCode } from '../claims/markdown-code.js';
import { formatClaimTime } from '../claims/marker.js';
import type { Holding, PeopleRun } from './people-run.js';
import type { PersonClaim } from './person-claims.js';

/**
 * What the app tells people about their claims (docs/protocol.md §16). Only the person the
 * note is for is mentioned; everyone else is named in a code span, which mentions no one.
 */

export function reminderNote(tag: string, claim: PersonClaim, staleAt: Date): string {
  return [
    tag,
    `@${claim.login} are you still working on this? Nothing since ${formatClaimTime(claim.heartbeat)}: your claim expires at ${formatClaimTime(staleAt)} and you will be unassigned. To keep it, comment here, push to your linked pull request, or comment \`/claim\` again; \`/release\` lets it go.`,
  ].join('\n');
}

export function expiredNote(tag: string, run: PeopleRun, claim: PersonClaim): string {
  return [
    tag,
    `@${claim.login} your claim on this issue expired: nothing since ${formatClaimTime(claim.heartbeat)}, for longer than ${days(run.rules.staleAfterMs)}. You have been unassigned; comment \`/claim\` to take it again.`,
  ].join('\n');
}

export function servedNote(tag: string, run: PeopleRun, login: string): string {
  const number = run.people.issue.slice(run.people.issue.lastIndexOf('#'));
  return [tag, `${number} is yours: @${login} was first in line.`].join('\n');
}

/** The holder as a refused `/claim` names it, and when its claim goes stale. */
export function holderText(holding: Holding, staleAt: Date | null): string {
  const until =
    staleAt === null
      ? 'it does not expire'
      : `it goes stale at ${formatClaimTime(staleAt)} unless renewed`;
  if (holding.kind === 'person') {
    return `${markdownCode(holding.claim.login)} holds this issue (assigned ${formatClaimTime(holding.claim.started)}); ${until}`;
  }
  if (holding.kind === 'hosted') {
    return `the hosted agent ${markdownCode(holding.claim.login)} holds this issue (since ${formatClaimTime(holding.claim.started)}); it holds while it is assigned or its pull request is open`;
  }
  const { holder } = holding.agent;
  // docs/protocol.md §17: a stale claim in its grace holds only for its own session.
  const held =
    holder.graceUntil && staleAt
      ? `went stale and holds this issue for its own session until ${graceUntilOf(staleAt)} (its grace)`
      : `holds this issue; ${until}`;
  return `the agent claim in comment ${holder.commentId} (session ${markdownCode(holder.session)}, by ${markdownCode(holder.author)}) ${held}`;
}

/** docs/protocol.md §17: a `/claim` on an issue in review; `owner` the stale claim's author. */
export function reviewText(owner: string | null): string {
  const why =
    owner === null
      ? 'a maintainer marked it'
      : `the stale session of ${markdownCode(owner)} left work here`;
  return `this issue needs review (${why}): ask a maintainer to review it, or claim another issue. You were not put on the waitlist.`;
}

/** Who may `/claim` here, for a refusal. */
export function whoText(run: PeopleRun): string {
  const { who, labels } = run.rules;
  if (who === 'members') {
    return 'only collaborators with write access and members of the organisation may claim issues here';
  }
  if (who === 'anyone') {
    const named = labels.map((label) => markdownCode(label)).join(', ');
    return `only collaborators with write access may claim this issue; anyone may claim issues labelled ${named}`;
  }
  return 'only collaborators with write access may claim issues here';
}

/** `people.maxClaims` reached: the refusal names the issues held. */
export function capText(run: PeopleRun, login: string, held: readonly string[]): string {
  return `${markdownCode(login)} already holds ${held.length} issue${held.length === 1 ? '' : 's'}, the most one person may hold here (${run.rules.maxClaims}): ${held.join(', ')}. Release one first with \`/release\` on it.`;
}

function days(ms: number): string {
  const day = 86_400_000;
  const [count, unit] = ms % day === 0 ? [ms / day, 'day'] : [Math.round(ms / 3_600_000), 'hour'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
