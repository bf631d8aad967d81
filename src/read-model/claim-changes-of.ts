import type { ClaimComment } from '../claims/liveness.js';
import { parseClaimMarker } from '../claims/marker.js';
import type { Plan } from '../claims/plan.js';
import type { ThreadComment } from '../claims/types.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import type { ClaimChange } from '../store/board-records.js';

/**
 * The expiries, losses and takeovers one applied plan wrote, for the board's history
 * (docs/protocol.md §14). Pure: a stale claim finalised while another claim holds the issue
 * is a takeover, without a holder an expiry; a claim that lost the race, or to a person who
 * holds the issue (docs/protocol.md §16), is a loss. Other
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
  const by = holderOf(plan, byId);
  const changes: ClaimChange[] = [];
  for (const action of plan.actions) {
    if (action.kind !== 'finalise') continue;
    if (!['stale', 'lost', 'person', 'hosted'].includes(action.reason)) {
      continue;
    }
    const claim = claimOf(byId.get(action.commentId));
    if (claim === null) continue;
    const kind = action.reason === 'stale' ? (by ? 'takeover' : 'expiry') : 'loss';
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

/** Who holds the issue after the plan, as the history names it: a person has no session. */
function holderOf(plan: Plan, byId: ReadonlyMap<number, ThreadComment>): ClaimChange['by'] | null {
  const holder = plan.holder;
  if (holder?.kind === 'person') return { login: holder.author, kind: 'person' };
  if (holder?.kind === 'hosted') return { login: holder.author, kind: 'hosted' };
  const claim = holder ? claimOf(byId.get(holder.commentId)) : null;
  return claim ? { login: claim.comment.author, session: claim.marker.session } : null;
}

function claimOf(comment: ThreadComment | undefined): ClaimComment | null {
  const marker = comment ? parseClaimMarker(comment.body) : null;
  return comment && marker ? { comment, marker } : null;
}
