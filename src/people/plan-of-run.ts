import { decide } from '../claims/decide.js';
import { hasName } from '../claims/names.js';
import type { PeopleVerdict } from '../claims/people-verdict.js';
import type { Action, HolderSummary, HostedHolder, Plan } from '../claims/plan.js';
import { duplicateNotes, type EarlierHolder } from '../hosted/duplicate-notes.js';
import type { HostedClaim } from '../hosted/hosted-claims.js';
import { type Holding, holderOf, type PeopleRun } from './people-run.js';
import { expires, remindAt, reminded, staleAt } from './person-liveness.js';
import { agentFacts } from './start-run.js';
import { waitlistOf } from './waitlist.js';

/**
 * The plan of a finished run: decide() writes agents' finalisations, status labels and their
 * assignees from what the run settled; the run adds people's assignments, the pinned label,
 * its notes and, last, its 👍 (a command is answered only once its effects are written, so a
 * run cut short runs it again).
 */
export function planOfRun(run: PeopleRun): Plan {
  const holding = holderOf(run);
  const people = [
    ...run.persons.map((c) => c.login),
    ...run.assigning.values(),
    ...run.unassigning.values(),
  ];
  const base = decide(agentFacts(run.facts, people), run.config, run.now, verdictOf(run, holding));
  const actions: Action[] = [
    ...base.actions,
    ...assigneeActions(run),
    ...pinActions(run, holding),
    ...run.notes,
    ...hostedNotes(run, holding),
    ...run.reactions,
  ];
  return {
    actions,
    holder:
      holding?.kind === 'person'
        ? personHolder(run, holding)
        : holding?.kind === 'hosted'
          ? hostedHolder(run, holding.claim)
          : base.holder,
    deadline: earliest([base.deadline, ...personDeadlines(run)]),
    waitlist: waitlistOf(run).map((waiting) => waiting.login),
  };
}

function verdictOf(run: PeopleRun, holding: Holding | null): PeopleVerdict {
  if (holding?.kind === 'person') {
    const { login } = holding.claim;
    return {
      person: holding.handedOverBy ? { login, handedOverBy: holding.handedOverBy } : { login },
    };
  }
  if (holding?.kind === 'hosted') {
    const { login, assignedBy } = holding.claim;
    const name = login.replace(/\[bot\]$/i, '');
    const by = assignedBy
      ? ` (assigned by @${assignedBy})`
      : ' (its pull request closes this issue)';
    const text = `${name} is working on this${by}`;
    return {
      hosted: holding.handedOverBy
        ? { login, text, handedOverBy: holding.handedOverBy }
        : { login, text },
    };
  }
  return holding ? { pinned: run.pinned } : {};
}

/** docs/protocol.md §18: the hosted agents working beside the claim that holds are told once. */
function hostedNotes(run: PeopleRun, holding: Holding | null): Action[] {
  if (holding === null || holding.kind === 'hosted' || run.hosted.length === 0) return [];
  const earlier: EarlierHolder =
    holding.kind === 'person'
      ? {
          ref: `person:${holding.claim.login.toLowerCase()}`,
          who: `@${holding.claim.login}`,
          since: holding.claim.started,
        }
      : {
          ref: String(holding.agent.holder.commentId),
          who: `@${holding.agent.holder.author}'s session`,
          since: holding.agent.createdAt,
        };
  return duplicateNotes(run.facts, run.people.issue, run.hosted, earlier);
}

function hostedHolder(run: PeopleRun, claim: HostedClaim): HostedHolder {
  const { pull } = claim;
  return {
    kind: 'hosted',
    author: claim.login,
    started: claim.started,
    heartbeat: claim.heartbeat,
    assignedBy: claim.assignedBy,
    pull:
      pull?.number === undefined
        ? null
        : {
            number: pull.number,
            ...(pull.head ? { head: pull.head } : {}),
            ...(pull.url ? { url: pull.url } : {}),
          },
    url: run.people.issueUrl,
  };
}

/** Writes only what GitHub does not show already. */
function assigneeActions(run: PeopleRun): Action[] {
  const assigned = (login: string) => hasName(run.facts.assignees, login);
  return [
    ...[...run.unassigning.values()]
      .filter(assigned)
      .map((login) => ({ kind: 'unassign' as const, login })),
    ...[...run.assigning.values()]
      .filter((l) => !assigned(l))
      .map((login) => ({ kind: 'assign' as const, login })),
  ];
}

/**
 * docs/protocol.md §16: the pinned label is the state. It shows while a pinned claim holds; with
 * no holder left it is taken off (with `enforceLabels`), and `/unpin` takes it off always.
 */
function pinActions(run: PeopleRun, holding: Holding | null): Action[] {
  // People's claims off (a hosted agent's run alone): the label is no state of the app's.
  if (run.config.people === undefined) return [];
  const label = run.rules.pinnedLabel;
  const present = hasName(run.facts.labels, label);
  const wanted = run.pinned && holding !== null;
  if (wanted && !present) return [{ kind: 'add-label', label, role: 'pinned' }];
  if (!wanted && present && (!run.pinned || run.config.enforceLabels)) {
    return [{ kind: 'remove-label', label }];
  }
  return [];
}

function personHolder(run: PeopleRun, holding: Holding & { kind: 'person' }): HolderSummary {
  const { claim } = holding;
  return {
    kind: 'person',
    author: claim.login,
    started: claim.started,
    heartbeat: claim.heartbeat,
    assignedBy: claim.actor,
    pinned: run.pinned,
    expires: expires(run, claim),
    url: run.people.issueUrl,
  };
}

/** The sweep looks again at each reminder due and each person claim going stale. */
function personDeadlines(run: PeopleRun): Date[] {
  if (!run.facts.open) return [];
  return run.persons
    .filter((claim) => expires(run, claim))
    .map((claim) => {
      const remind = remindAt(run, claim);
      return remind !== null && !reminded(run, claim) ? remind : staleAt(run, claim);
    });
}

function earliest(dates: readonly (Date | null)[]): Date | null {
  let first: Date | null = null;
  for (const date of dates) {
    if (date !== null && (first === null || date.getTime() < first.getTime())) first = date;
  }
  return first;
}
