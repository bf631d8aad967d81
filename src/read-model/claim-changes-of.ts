import type { Plan } from '../claims/decide.js';
import { agentHolder } from '../claims/holder-summary.js';
import type { ClaimComment } from '../claims/liveness.js';
import { parseClaimMarker } from '../claims/marker.js';
import type { ThreadComment } from '../claims/types.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import type { ClaimChange } from '../store/board-records.js';

/**
 * The expiries, losses and takeovers one applied plan wrote, for the board's history
 * (docs/protocol.md §14). Pure: a stale claim finalised while another claim holds the issue
 * is a takeover, without a holder an expiry; a claim that lost the race is a loss. Other
 * finalisations (closed, administrative) are not listed.
 */
export function claimChangesOf(
  key: IssueKey,
  plan: Plan,
  thread: IssueThread & { readonly meta?: IssueMeta },
  now: Date,
): ClaimChange[] {
  const repo = `${key.owner}/${key.repo}`;
  const title = thread.meta?.title ?? '';
  const url = thread.meta?.url ?? '';
  const byId = new Map(thread.comments.map((c) => [c.id, c]));
  const agent = agentHolder(plan.holder);
  const holder = agent ? claimOf(byId.get(agent.commentId)) : null;
  const by = holder ? { login: holder.comment.author, session: holder.marker.session } : null;
  const changes: ClaimChange[] = [];
  for (const action of plan.actions) {
    if (action.kind !== 'finalise') continue;
    if (action.reason !== 'stale' && action.reason !== 'lost') continue;
    const claim = claimOf(byId.get(action.commentId));
    if (claim === null) continue;
    const kind = action.reason === 'lost' ? 'loss' : by ? 'takeover' : 'expiry';
    changes.push({
      id: `${claim.comment.id}:${kind}`,
      kind,
      at: now.toISOString(),
      installationId: key.installationId,
      repo,
      number: key.number,
      title,
      url,
      commentId: claim.comment.id,
      author: claim.comment.author,
      session: claim.marker.session,
      ...(by ? { by } : {}),
    });
  }
  return changes;
}

function claimOf(comment: ThreadComment | undefined): ClaimComment | null {
  const marker = comment ? parseClaimMarker(comment.body) : null;
  return comment && marker ? { comment, marker } : null;
}
