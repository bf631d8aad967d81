import type { DecideConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import { latestAssignment } from '../claims/latest-assignment.js';
import { sameName } from '../claims/names.js';
import type { AssignmentEvent } from '../claims/people-facts.js';
import { isHostedLogin } from '../hosted/hosted-logins.js';
import { personAssignees } from './explained.js';
import { threadCommands } from './thread-commands.js';

/** What the edge reads from GitHub for decideWithPeople, beyond the thread (docs/protocol.md §16). */
interface PeopleReads {
  /** Read the issue's timeline: an assignee no marker accounts for may be a person's claim. */
  readonly timeline: boolean;
  /**
   * Lowercased logins whose repository role, organisation membership (with `members`) and
   * person claims held elsewhere the decision may ask: commands' authors and targets, the
   * people waiting, and (once the timeline is read) who assigned each person.
   */
  readonly logins: readonly string[];
  /** Read organisation membership of `logins` (`people.who: members`). */
  readonly members: boolean;
  /**
   * Command comments that no reply of the app answers: read the app's 👍 on those whose
   * `+1` count is above 0 (the others are pending for certain).
   */
  readonly reactions: readonly number[];
  /**
   * Lowercased targets of pending `/claim @login` commands: ask GitHub whether it can assign
   * each to the issue (it drops one it cannot without an error).
   */
  readonly assignable: readonly string[];
}

/**
 * docs/protocol.md §18: what tells, without a call, that a hosted agent may work on the issue:
 * a listed bot assigned, its pull request's event, or the app's note about it in the thread.
 * (The edge adds the index's holder.) An issue with neither signal reads nothing more.
 */
function hostedSignal(facts: IssueFacts, config: DecideConfig): boolean {
  const hosted = config.hosted ?? [];
  if (hosted.length === 0) return false;
  return (
    facts.assignees.some((login) => isHostedLogin(login, hosted)) ||
    facts.hints.some((hint) => hint.kind === 'hosted-pull') ||
    facts.comments.some(
      (c) =>
        sameName(c.author, facts.appLogin) &&
        c.body.startsWith('<!-- claim-warden note=hosted-duplicate '),
    )
  );
}

const NOTHING: PeopleReads = {
  timeline: false,
  logins: [],
  members: false,
  reactions: [],
  assignable: [],
};

/**
 * Pure, on the thread as read (`facts.people` is ignored). The edge calls it before reading
 * the timeline, and again with the timeline read, for the assigners' logins. A pull request
 * reads nothing more. With people's claims off only a hosted signal reads anything (the
 * timeline, and who assigned the hosted agent: docs/protocol.md §18 needs no §16), so an issue
 * with neither costs what it did in part two.
 */
export function peopleReads(
  facts: IssueFacts,
  config: DecideConfig,
  now: Date,
  timeline: readonly AssignmentEvent[] | null = null,
): PeopleReads {
  const rules = config.people;
  if (facts.isPullRequest) return NOTHING;
  if (rules === undefined && !hostedSignal(facts, config)) return NOTHING;
  const persons = rules ? personAssignees(facts, config, now) : [];
  const slug = facts.appLogin.replace(/\[bot\]$/i, '');
  const commands = rules
    ? threadCommands(facts, { slug, reacted: new Set() }, rules.staleAfterMs, now)
    : [];
  const logins = new Set<string>();
  const reactions: number[] = [];
  const assignable = new Set<string>();
  for (const command of commands) {
    if (command.answer === null) {
      // An edited one is never run, but its 👍 says whether it ran before the edit.
      reactions.push(command.id);
      if (command.edited) continue;
      logins.add(command.author.toLowerCase());
      logins.add(command.login.toLowerCase());
      if (command.verb === 'claim' && command.target !== undefined) {
        assignable.add(command.target.toLowerCase());
      }
    } else if (command.answer.outcome === 'waitlisted') {
      logins.add(command.login.toLowerCase());
    }
  }
  // Who assigned each person, and each hosted agent (§18): a maintainer's hands an agent's
  // claim over.
  const hosted = facts.assignees.filter((login) => isHostedLogin(login, config.hosted ?? []));
  for (const login of [...persons, ...hosted]) {
    const latest = latestAssignment(timeline, login);
    if (latest) logins.add(latest.actor.toLowerCase());
  }
  const sorted = [...logins].sort();
  return {
    timeline: persons.length > 0 || hostedSignal(facts, config),
    logins: sorted,
    members: rules?.who === 'members' && sorted.length > 0,
    reactions,
    assignable: [...assignable].sort(),
  };
}
