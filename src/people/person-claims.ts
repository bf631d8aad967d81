import type { IssueFacts } from '../claims/issue-facts.js';
import { latestAssignment } from '../claims/latest-assignment.js';
import { sameName } from '../claims/names.js';
import type { PeopleFacts } from '../claims/people-facts.js';

/** A person's assignment as a claim (docs/protocol.md §16). */
export interface PersonClaim {
  /** As GitHub writes it in the assignees. */
  readonly login: string;
  /** The latest `assigned` event for them; the issue's creation when the timeline has none. */
  readonly started: Date;
  /** Who assigned them; '' when the timeline does not say. */
  readonly actor: string;
  /** The latest of the assignment, their comments and their open linked pull requests. */
  readonly heartbeat: Date;
}

/** The person claims of `logins` (assignees no marker accounts for), oldest first. */
export function personClaims(
  facts: IssueFacts,
  people: PeopleFacts,
  logins: readonly string[],
): PersonClaim[] {
  return logins
    .map((login) => personClaim(facts, people, login))
    .sort((a, b) => a.started.getTime() - b.started.getTime() || a.login.localeCompare(b.login));
}

function personClaim(facts: IssueFacts, people: PeopleFacts, login: string): PersonClaim {
  const assigned = latestAssignment(people.timeline, login);
  const started = assigned?.at ?? people.createdAt;
  return {
    login,
    started,
    actor: assigned?.actor ?? '',
    heartbeat: heartbeatOf(facts, people, login, started),
  };
}

function heartbeatOf(facts: IssueFacts, people: PeopleFacts, login: string, started: Date): Date {
  let latest = started.getTime();
  for (const comment of facts.comments) {
    if (sameName(comment.author, login)) latest = Math.max(latest, comment.createdAt.getTime());
  }
  for (const pull of people.pulls) {
    if (pull.open && sameName(pull.author, login))
      latest = Math.max(latest, pull.updatedAt.getTime());
  }
  return new Date(latest);
}

/** A claim the app makes now, for a `/claim` or from the waitlist. */
export function newClaim(login: string, appLogin: string, now: Date): PersonClaim {
  return { login, started: now, actor: appLogin, heartbeat: now };
}
