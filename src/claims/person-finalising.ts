import type { ClaimComment } from './liveness.js';
import type { PeopleVerdict } from './people-verdict.js';
import type { Finalising } from './without-path-losers.js';

/** Who holds the issue instead of an agent: a person (§16) or a hosted agent (§18). */
type OtherHolder = NonNullable<PeopleVerdict['person']> | NonNullable<PeopleVerdict['hosted']>;

/**
 * docs/protocol.md §16 and §18: an agent claim finalised because a person or a hosted agent
 * holds the issue. The claim that held is handed over when a maintainer made the assignment;
 * every other one abandoned, with the reason that names the holder.
 */
export function personFinalising(
  claim: ClaimComment,
  person: OtherHolder,
  held: boolean,
): Finalising {
  if (held && person.handedOverBy !== undefined) {
    return {
      claim,
      outcome: 'handed-over',
      reason: 'handed-over',
      text: `handed to @${person.login} by @${person.handedOverBy}`,
    };
  }
  if ('text' in person) return { claim, outcome: 'abandoned', reason: 'hosted', text: person.text };
  return {
    claim,
    outcome: 'abandoned',
    reason: 'person',
    text: `assigned to @${person.login}, who holds this issue`,
  };
}
