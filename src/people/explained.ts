import type { DecideConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import { isLive } from '../claims/liveness.js';
import { parseClaimMarker } from '../claims/marker.js';
import { hasName } from '../claims/names.js';
import { isTrustedAuthor, trustedClaims } from '../claims/trusted-claims.js';
import { isHostedLogin } from '../hosted/hosted-logins.js';
import { isBot } from './thread-commands.js';

/**
 * The assignees that are person claims (docs/protocol.md §16): not bots (by suffix or by the
 * type GitHub reports), and not accounted
 * for by a trusted marker of theirs. A marker accounts for its author's assignment when it
 * records `assignee=claim` or `before` (live or finalised, or deleted: decide() takes back what
 * a claim assigned) or when it is live (old markers lack the key); an assignment the app
 * remembers making for a claim comment still in the thread is that claim's, even once its
 * marker no longer counts.
 */
export function personAssignees(facts: IssueFacts, config: DecideConfig, now: Date): string[] {
  const explained = new Set<string>();
  // The app assigned them for their claim comment, whose marker no longer counts (its author
  // stopped being a collaborator): the assignment is that agent claim's, not a person's.
  const remembered = facts.appAssignees ?? [];
  for (const comment of facts.comments) {
    if (hasName(remembered, comment.author) && parseClaimMarker(comment.body) !== null) {
      explained.add(comment.author.toLowerCase());
    }
  }
  for (const claim of trustedClaims(facts.comments, config.trustedBots)) {
    const author = claim.comment.author;
    if (
      claim.marker.assignee !== undefined ||
      isLive(claim, facts.open, config.staleAfterMs, now)
    ) {
      explained.add(author.toLowerCase());
    }
  }
  for (const hint of facts.hints) {
    if (hint.kind !== 'comment-deleted') continue;
    if (!isTrustedAuthor(hint.author, hint.authorAssociation, config.trustedBots)) continue;
    if (parseClaimMarker(hint.body)?.assignee !== undefined)
      explained.add(hint.author.toLowerCase());
  }
  // docs/protocol.md §18: a hosted agent is never a person, whatever type GitHub reports.
  const hosted = config.hosted ?? [];
  return facts.assignees.filter(
    (login) =>
      !isBot(login, facts) && !isHostedLogin(login, hosted) && !explained.has(login.toLowerCase()),
  );
}
