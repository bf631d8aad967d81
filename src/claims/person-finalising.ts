import type { ClaimComment } from './liveness.js';
import type { PeopleVerdict } from './people-verdict.js';
import type { Finalising } from './without-path-losers.js';

/**
 * docs/protocol.md §16: an agent claim finalised because a person holds the issue. The claim
 * that held is handed over when a maintainer assigned the person; every other one abandoned.
 */
export function personFinalising(
  claim: ClaimComment,
  person: NonNullable<PeopleVerdict['person']>,
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
  return {
    claim,
    outcome: 'abandoned',
    reason: 'person',
    text: `assigned to @${person.login}, who holds this issue`,
  };
}
