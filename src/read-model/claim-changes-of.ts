import type { ClaimComment } from '../claims/liveness.js';
import { parseClaimMarker } from '../claims/marker.js';
import type { FinaliseReason, Plan } from '../claims/plan.js';
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
    const kind = changeKind(action.reason, by !== null);
    if (kind === null) continue;
    const claim = claimOf(byId.get(action.commentId));
    if (claim === null) continue;
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
      // docs/protocol.md §17: the board's row of an issue in review names this work.
      ...(action.review
        ? { review: { ...action.review, head: action.review.head.slice(0, 7) } }
        : {}),
    });
  }
  return changes;
}

/**
 * A finalisation as the history counts it: stale (or, docs/protocol.md §17, reclaimed in
 * grace by its own session) is a takeover when a claim holds after it, else an expiry; lost
 * to a claim, a person or a claim in grace is a loss; the rest are not listed.
 */
function changeKind(reason: FinaliseReason, held: boolean): ClaimChange['kind'] | null {
  if (reason === 'stale' || reason === 'reclaimed') return held ? 'takeover' : 'expiry';
  if (reason === 'lost' || reason === 'person' || reason === 'grace' || reason === 'hosted') {
    return 'loss';
  }
  return null;
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
