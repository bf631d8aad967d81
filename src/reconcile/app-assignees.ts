import { hasName, sameName } from '../claims/names.js';
import type { Plan } from '../claims/plan.js';

/**
 * The logins the app assigned for agents' claims, after the plan's actions: those remembered
 * that are still assigned (a person may have unassigned one), plus those the plan assigns,
 * less those it unassigns once `applied`. GitHub logins are case-insensitive: one entry per
 * login.
 */
export function appAssigneesAfter(
  remembered: readonly string[],
  assignees: readonly string[],
  plan: Plan,
  applied: boolean,
): string[] {
  const next = new Map<string, string>();
  for (const login of remembered) {
    if (hasName(assignees, login)) next.set(login.toLowerCase(), login);
  }
  // Only the agent holder's assignment is a claim's: a person the app assigns (docs/protocol.md
  // §16, `/claim` or the waitlist) holds a person claim, which the timeline tells.
  const holder = plan.holder?.kind === 'agent' ? plan.holder.author : null;
  for (const action of plan.actions) {
    if (action.kind === 'assign' && holder !== null && sameName(action.login, holder)) {
      next.set(action.login.toLowerCase(), action.login);
    }
    if (action.kind === 'unassign' && applied) next.delete(action.login.toLowerCase());
  }
  return [...next.values()];
}

/** Whether two lists hold the same logins in the same order. */
export function sameLogins(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((login, i) => login === b[i]);
}
