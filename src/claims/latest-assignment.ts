import { sameName } from './names.js';
import type { AssignmentEvent } from './people-facts.js';

/**
 * The timeline's latest `assigned` event for `login`: the start of their claim, a person's
 * (docs/protocol.md §16) or a hosted agent's (§18).
 */
export function latestAssignment(
  timeline: readonly AssignmentEvent[] | null,
  login: string,
): AssignmentEvent | undefined {
  let assigned: AssignmentEvent | undefined;
  for (const event of timeline ?? []) {
    if (event.event !== 'assigned' || !sameName(event.login, login)) continue;
    if (!assigned || event.at.getTime() >= assigned.at.getTime()) assigned = event;
  }
  return assigned;
}
