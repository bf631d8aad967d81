import type { DecideConfig } from './decide-config.js';
import type { IssueFacts } from './issue-facts.js';
import type { ClaimComment } from './liveness.js';
import { hasName, sameName } from './names.js';
import type { Action } from './plan.js';

/**
 * docs/protocol.md §4: the status labels that make the holder visible, removals first. A
 * person holding the issue (`personHolds`, §16) shows as in progress too.
 */
export function labelActions(
  facts: IssueFacts,
  config: DecideConfig,
  holder: ClaimComment | null,
  claimsChanged: boolean,
  personHolds = false,
): Action[] {
  const wanted: Array<['inProgress' | 'blocked', boolean]> = [
    ['inProgress', holder !== null || personHolds],
    ['blocked', holder?.marker.stage === 'blocked'],
  ];
  const actions: Action[] = [];
  for (const [role, want] of wanted) {
    const label = config.labels[role];
    const has = hasName(facts.labels, label);
    if (want && !has) actions.push({ kind: 'add-label', label, role });
    if (!want && has && (config.enforceLabels || claimsChanged || !addedByPerson(facts, label))) {
      actions.push({ kind: 'remove-label', label });
    }
  }
  // Removals first: a reader never sees both the old and the new state labelled at once.
  return actions.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'remove-label' ? -1 : 1));
}

/**
 * With `enforceLabels: false` a status label a person just added is left alone, unless the
 * claims themselves changed in this reconcile.
 */
function addedByPerson(facts: IssueFacts, label: string): boolean {
  return facts.hints.some((hint) => hint.kind === 'label-added' && sameName(hint.label, label));
}
