import { decide } from '../claims/decide.js';
import type { DecideConfig, PeopleConfig } from '../claims/decide-config.js';
import { agentHolder } from '../claims/holder-summary.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import { hasName } from '../claims/names.js';
import type { PeopleFacts } from '../claims/people-facts.js';
import { reviewInForce } from '../claims/review.js';
import { hostedClaims } from '../hosted/hosted-claims.js';
import { personAssignees } from './explained.js';
import { peopleNotes } from './note-tags.js';
import type { AgentCandidate, PeopleRun } from './people-run.js';
import { personClaims } from './person-claims.js';
import { threadCommands } from './thread-commands.js';

/** The state before any pending command runs: GitHub's, as the thread and timeline show it. */
export function startRun(
  facts: IssueFacts,
  people: PeopleFacts,
  config: DecideConfig,
  rules: PeopleConfig,
  now: Date,
): PeopleRun {
  // docs/protocol.md §18 alone (people's claims off): no person claims, pins, nor commands.
  const peopleOn = config.people !== undefined;
  const persons = peopleOn ? personClaims(facts, people, personAssignees(facts, config, now)) : [];
  const pinned = peopleOn && hasName(facts.labels, rules.pinnedLabel);
  const agents = agentFacts(
    facts,
    persons.map((claim) => claim.login),
  );
  const agent = agentCandidate(facts, decide(agents, config, now, { pinned }).holder);
  return {
    facts,
    people,
    config,
    rules,
    now,
    agent,
    review: reviewInForce(facts, config, now, agent?.holder.author ?? null),
    persons,
    hosted: hostedClaims(facts, people, config.hosted),
    pinned,
    commands: peopleOn
      ? threadCommands(
          facts,
          { slug: people.appSlug, reacted: people.reacted },
          rules.staleAfterMs,
          now,
        )
      : [],
    served: new Set(peopleNotes(facts).served),
    assigning: new Map(),
    unassigning: new Map(),
    notes: [],
    reactions: [],
  };
}

/**
 * The facts decide() weighs agents' claims on: the app's memory of whom it assigned leaves out
 * people, whose assignments only the rules of §16 undo (the app never unassigns a person for
 * an agent).
 */
export function agentFacts(facts: IssueFacts, people: readonly string[]): IssueFacts {
  if (facts.appAssignees === undefined) return facts;
  return { ...facts, appAssignees: facts.appAssignees.filter((login) => !hasName(people, login)) };
}

function agentCandidate(
  facts: IssueFacts,
  holder: Parameters<typeof agentHolder>[0],
): AgentCandidate | null {
  const agent = agentHolder(holder);
  const comment = agent && facts.comments.find((c) => c.id === agent.commentId);
  return agent && comment ? { holder: agent, createdAt: comment.createdAt } : null;
}
