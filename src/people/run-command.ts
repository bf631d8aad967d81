import { sameName } from '../claims/names.js';
import type { CommandOutcome } from './note-tags.js';
import { capText, holderText, reviewText, whoText } from './note-texts.js';
import { answer, assign, holderOf, type PeopleRun, personOf, unassign } from './people-run.js';
import { newClaim } from './person-claims.js';
import { holdingStaleAt } from './person-liveness.js';
import { isTriager, mayClaim, overCap } from './roles.js';
import { isBot, type ThreadCommand } from './thread-commands.js';
import { waitlistOf } from './waitlist.js';

/**
 * Runs one pending command on the state the earlier ones left (docs/protocol.md §16). Every
 * command ends answered: 👍 when accepted, one reply when refused. A command whose effect is
 * already true is accepted, so a run cut short and retried answers the same.
 */
export function runCommand(run: PeopleRun, command: ThreadCommand): void {
  if (command.target !== undefined && !isTriager(run.people, command.author)) {
    const verb = command.verb === 'claim' ? 'claim' : 'release';
    answer(
      run,
      command,
      'refused',
      `only triagers and maintainers may ${verb} an issue for someone else.`,
    );
    return;
  }
  if (command.verb === 'claim') claim(run, command);
  else if (command.verb === 'release') release(run, command);
  else pin(run, command, command.verb === 'pin');
}

function claim(run: PeopleRun, command: ThreadCommand): void {
  const [outcome, text] = claimOutcome(run, command);
  if (outcome === 'accepted' && !personOf(run, command.login)) {
    assign(run, newClaim(command.login, run.facts.appLogin, run.now));
  }
  answer(run, command, outcome, text);
}

function claimOutcome(run: PeopleRun, command: ThreadCommand): [CommandOutcome, string?] {
  const { login } = command;
  if (!run.facts.open) return ['refused', 'this issue is closed.'];
  if (isBot(login, run.facts) || sameName(login, run.people.appSlug)) {
    return ['refused', 'bots are not assigned: agents claim with a claim comment.'];
  }
  const onBehalf = command.target !== undefined;
  if (!onBehalf && !mayClaim(run.people, run.rules, run.facts.labels, login)) {
    return ['refused', `${whoText(run)}.`];
  }
  // GitHub would drop the assignment silently: a 👍 and the in-progress label with no one
  // assigned. Refused instead, before any write.
  if (onBehalf && run.people.unassignable?.has(login.toLowerCase())) {
    return [
      'refused',
      `GitHub cannot assign @${login} to this issue (an account must have access to the repository, or have commented here): nothing was changed.`,
    ];
  }
  const holding = holderOf(run);
  if (holding?.kind === 'person' && holding.claim === personOf(run, login)) return ['accepted'];
  // docs/protocol.md §17: only the stale claim's own author comes back to a review.
  const { review } = run;
  if (review && !(review.owner !== null && sameName(login, review.owner))) {
    return ['refused', reviewText(review.owner)];
  }
  if (holding) {
    const line = waitlistOf(run);
    const at = line.findIndex((waiting) => sameName(waiting.login, login));
    const place = (at === -1 ? line.length : at) + 1;
    const who = onBehalf ? `@${login} is` : 'You are';
    return [
      'waitlisted',
      `${holderText(holding, holdingStaleAt(run, holding))}. ${who} number ${place} on the waitlist: the first in line still allowed is assigned when the issue frees.`,
    ];
  }
  const held = overCap(run.people, run.rules, login);
  return held === null ? ['accepted'] : ['refused', capText(run, login, held)];
}

/** A person's claim ends, or they leave the waitlist; with neither, there is nothing to do. */
function release(run: PeopleRun, command: ThreadCommand): void {
  if (personOf(run, command.login)) unassign(run, command.login);
  answer(run, command, 'accepted');
}

function pin(run: PeopleRun, command: ThreadCommand, pinned: boolean): void {
  if (!isTriager(run.people, command.author)) {
    answer(
      run,
      command,
      'refused',
      `only triagers and maintainers may ${pinned ? 'pin' : 'unpin'} a claim.`,
    );
    return;
  }
  if (pinned && holderOf(run) === null) {
    answer(run, command, 'refused', 'no claim holds this issue: there is nothing to pin.');
    return;
  }
  run.pinned = pinned;
  answer(run, command, 'accepted');
}
