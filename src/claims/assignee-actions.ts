import type { DecideConfig } from './decide-config.js';
import type { IssueFacts } from './issue-facts.js';
import type { ClaimComment } from './liveness.js';
import { parseClaimMarker } from './marker.js';
import { hasName } from './names.js';
import type { Action } from './plan.js';
import { isTrustedAuthor } from './trusted-claims.js';

/**
 * docs/protocol.md §4: the holder's author is assigned; with no holder, an author whose latest claim
 * recorded `assignee=claim` is unassigned, and every other assignee is kept. Only each
 * author's latest claim counts, so an old released claim does not undo a newer one. Besides,
 * every login the app remembers assigning is unassigned unless its author holds the issue.
 */
export function assigneeActions(
  facts: IssueFacts,
  config: DecideConfig,
  claims: readonly ClaimComment[],
  holder: ClaimComment | null,
): Action[] {
  const latest = new Map<string, { id: number; assignee: string | undefined }>();
  const note = (author: string, id: number, assignee: string | undefined) => {
    const key = author.toLowerCase();
    const seen = latest.get(key);
    if (!seen || id > seen.id) latest.set(key, { id, assignee });
  };
  for (const claim of claims) note(claim.comment.author, claim.comment.id, claim.marker.assignee);
  for (const hint of facts.hints) {
    if (hint.kind !== 'comment-deleted') continue;
    if (!isTrustedAuthor(hint.author, hint.authorAssociation, config.trustedBots)) continue;
    if (claims.some((c) => c.comment.id === hint.commentId)) continue;
    const marker = parseClaimMarker(hint.body);
    if (marker) note(hint.author, hint.commentId, marker.assignee);
  }

  const actions: Action[] = [];
  const holderAuthor = holder?.comment.author.toLowerCase();
  const unassigning = new Set<string>();
  const unassign = (author: string) => {
    if (author === holderAuthor || unassigning.has(author)) return;
    const assigned = facts.assignees.find((login) => login.toLowerCase() === author);
    if (!assigned) return;
    unassigning.add(author);
    actions.push({ kind: 'unassign', login: assigned });
  };
  for (const [author, claim] of latest) {
    if (claim.assignee === 'claim') unassign(author);
  }
  // What the app assigned itself it takes back, trusted marker or not. Only the app's own
  // memory is read here, never a marker, so a forged marker still makes no write.
  for (const login of facts.appAssignees ?? []) unassign(login.toLowerCase());
  // GitHub silently refuses to assign bot accounts: asking would cost a call on every reconcile.
  const author = holder?.comment.author;
  if (author && config.assign && !author.endsWith('[bot]') && !hasName(facts.assignees, author)) {
    actions.push({ kind: 'assign', login: author });
  }
  return actions;
}
