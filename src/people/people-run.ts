import type { DecideConfig, PeopleConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import { sameName } from '../claims/names.js';
import type { PeopleFacts } from '../claims/people-facts.js';
import type { Action, AgentHolder } from '../claims/plan.js';
import type { HostedClaim } from '../hosted/hosted-claims.js';
import { type CommandOutcome, replyTag } from './note-tags.js';
import type { PersonClaim } from './person-claims.js';
import { mayHandOver } from './roles.js';
import type { ThreadCommand } from './thread-commands.js';

/** The agent claim that holds as far as agents go, and when its comment was posted. */
export interface AgentCandidate {
  readonly holder: AgentHolder;
  readonly createdAt: Date;
}

/** Who holds the issue across kinds (docs/protocol.md §16, §18). */
export type Holding =
  | { readonly kind: 'agent'; readonly agent: AgentCandidate }
  | { readonly kind: 'person'; readonly claim: PersonClaim; readonly handedOverBy?: string }
  | { readonly kind: 'hosted'; readonly claim: HostedClaim; readonly handedOverBy?: string };

/**
 * One decision about people's claims in progress: the state each command sees and leaves,
 * and the writes it has planned so far. Only decideWithPeople makes and changes one.
 */
export interface PeopleRun {
  readonly facts: IssueFacts;
  readonly people: PeopleFacts;
  readonly config: DecideConfig;
  readonly rules: PeopleConfig;
  readonly now: Date;
  agent: AgentCandidate | null;
  /**
   * docs/protocol.md §17: the review in force, and the stale claim's author whose return it
   * admits (null: the label was added by hand); null when the issue is not in review.
   */
  readonly review: { readonly owner: string | null } | null;
  /** Live person claims, oldest first. */
  persons: PersonClaim[];
  /** Hosted agents' claims (docs/protocol.md §18), oldest first; the app never changes them. */
  readonly hosted: readonly HostedClaim[];
  pinned: boolean;
  /** The thread's commands; each one run gets its answer here. */
  readonly commands: ThreadCommand[];
  /** The waiting `/claim`s served (the app's notes, and this run's). */
  readonly served: Set<number>;
  readonly assigning: Map<string, string>;
  readonly unassigning: Map<string, string>;
  readonly notes: Action[];
  readonly reactions: Action[];
}

/**
 * docs/protocol.md §16 and §18: the oldest claim holds, across kinds, by start time (a tie
 * goes to the earlier kind: person, hosted, agent). A person or hosted agent assigned after
 * an agent's claim began takes the issue only when a maintainer made the assignment, handing
 * the agent's claim over. A closed issue has no holder.
 */
export function holderOf(run: PeopleRun): Holding | null {
  if (!run.facts.open) return null;
  const agent = run.agent;
  const others: Holding[] = [
    ...run.persons.map((claim) => ({ kind: 'person' as const, claim })),
    ...run.hosted.map((claim) => ({ kind: 'hosted' as const, claim })),
  ].sort((a, b) => startOf(a) - startOf(b) || RANK[a.kind] - RANK[b.kind]);
  for (const other of others) {
    if (agent === null || startOf(other) <= agent.createdAt.getTime()) return other;
    const actor = actorOf(other);
    if (actor !== '' && mayHandOver(run.people, run.rules, actor)) {
      return { ...other, handedOverBy: actor } as Holding;
    }
  }
  return agent ? { kind: 'agent', agent } : null;
}

/** docs/protocol.md §18's tie order. */
const RANK: Readonly<Record<Holding['kind'], number>> = { person: 0, hosted: 1, agent: 2 };

function startOf(holding: Holding): number {
  return holding.kind === 'agent'
    ? holding.agent.createdAt.getTime()
    : holding.claim.started.getTime();
}

/** Who made the assignment a claim began with; '' for a hosted agent's pull request alone. */
function actorOf(holding: Holding): string {
  if (holding.kind === 'person') return holding.claim.actor;
  if (holding.kind === 'hosted') {
    // Its pull request began it (before any assignment): no one handed anything over.
    const { claim } = holding;
    return claim.assignedAt?.getTime() === claim.started.getTime() ? claim.assignedBy : '';
  }
  return '';
}

export function personOf(run: PeopleRun, login: string): PersonClaim | undefined {
  return run.persons.find((claim) => sameName(claim.login, login));
}

/** Plans an assignment; undoing one planned in this run cancels both. */
export function assign(run: PeopleRun, claim: PersonClaim): void {
  const key = claim.login.toLowerCase();
  if (!run.unassigning.delete(key)) run.assigning.set(key, claim.login);
  run.persons = [...run.persons, claim].sort((a, b) => a.started.getTime() - b.started.getTime());
}

export function unassign(run: PeopleRun, login: string): void {
  const key = login.toLowerCase();
  if (!run.assigning.delete(key)) run.unassigning.set(key, login);
  run.persons = run.persons.filter((claim) => !sameName(claim.login, login));
}

/**
 * Records a command's answer: 👍 when accepted, else one reply mentioning its author. A
 * refusal gets no reply when its author was already refused on the issue within
 * `people.staleAfter` (docs/protocol.md §16): the app's replies never multiply a passer-by's
 * comments. Such a command stays unanswered, so it is run again on the issue's next reconcile
 * (and accepted once its author may claim) until it is older than the window.
 */
export function answer(
  run: PeopleRun,
  command: ThreadCommand,
  outcome: CommandOutcome,
  text?: string,
): void {
  const refusedBefore = outcome === 'refused' && refusedLately(run, command);
  const index = run.commands.indexOf(command);
  run.commands[index] = { ...command, answer: { outcome, at: run.now } };
  if (outcome === 'accepted') {
    run.reactions.push({ kind: 'react', commentId: command.id });
    return;
  }
  if (refusedBefore) return;
  run.notes.push({
    kind: 'post-note',
    forCommentId: command.id,
    body: `${replyTag(command.id, outcome)}\n@${command.author} ${text ?? ''}`.trimEnd(),
  });
}

/** Whether another command of the same author got a refusal within the stale window. */
function refusedLately(run: PeopleRun, command: ThreadCommand): boolean {
  return run.commands.some(
    (other) =>
      other.id !== command.id &&
      other.answer?.outcome === 'refused' &&
      sameName(other.author, command.author) &&
      run.now.getTime() - other.answer.at.getTime() < run.rules.staleAfterMs,
  );
}
