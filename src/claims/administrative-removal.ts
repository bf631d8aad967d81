import type { DecideConfig } from './decide-config.js';
import type { IssueFacts } from './issue-facts.js';
import type { ClaimComment } from './liveness.js';
import { hasName, sameName } from './names.js';

/**
 * docs/protocol.md §4: a person removing the in-progress label while a claim is live releases it. Only a
 * removal after the holder's comment was posted counts (a late delivery of an older removal
 * must not release a newer claim), and only while the label is still absent.
 */
export function administrativeRemoval(
  facts: IssueFacts,
  config: DecideConfig,
  holder: ClaimComment,
): { by: string; label: string } | null {
  const label = config.labels.inProgress;
  if (hasName(facts.labels, label)) return null;
  const posted = holder.comment.createdAt.getTime();
  const removal = facts.hints.find(
    (hint) =>
      hint.kind === 'label-removed' && sameName(hint.label, label) && Date.parse(hint.at) >= posted,
  );
  return removal?.kind === 'label-removed' ? { by: removal.by, label } : null;
}
