import type { PeopleConfig } from '../claims/decide-config.js';
import { hasName } from '../claims/names.js';
import type { PeopleFacts, Role } from '../claims/people-facts.js';

const RANK: Readonly<Record<Role, number>> = {
  none: 0,
  read: 1,
  triage: 2,
  write: 3,
  maintain: 4,
  admin: 5,
};

/** A login's role on the repository; a login the edge did not read has none (fail closed). */
function roleOf(people: PeopleFacts, login: string): Role {
  return people.roles.get(login.toLowerCase()) ?? 'none';
}

function atLeast(people: PeopleFacts, login: string, role: Role): boolean {
  return RANK[roleOf(people, login)] >= RANK[role];
}

/** Triage or higher: may claim and release for others, pin and unpin. */
export function isTriager(people: PeopleFacts, login: string): boolean {
  return atLeast(people, login, 'triage');
}

/** docs/protocol.md §16: whose assignment hands an agent's issue over to a person. */
export function mayHandOver(people: PeopleFacts, config: PeopleConfig, login: string): boolean {
  return atLeast(people, login, config.handover === 'triage' ? 'triage' : 'maintain');
}

/** docs/protocol.md §16 `people.who`: whether `login` may `/claim` this issue for themself. */
export function mayClaim(
  people: PeopleFacts,
  config: PeopleConfig,
  labels: readonly string[],
  login: string,
): boolean {
  if (atLeast(people, login, 'write')) return true;
  if (config.who === 'members') return people.members.has(login.toLowerCase());
  return config.who === 'anyone' && config.labels.some((label) => hasName(labels, label));
}

/** The issues `login` holds elsewhere when that reaches the cap (`people.maxClaims`), else null. */
export function overCap(
  people: PeopleFacts,
  config: PeopleConfig,
  login: string,
): readonly string[] | null {
  if (config.maxClaims === 0) return null;
  const held = people.heldElsewhere.get(login.toLowerCase()) ?? [];
  return held.length >= config.maxClaims ? held : null;
}
