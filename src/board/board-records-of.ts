import type { Plan } from '../claims/decide.js';
import { type ClaimComment, heartbeat, staleAt } from '../claims/liveness.js';
import { parseClaimMarker } from '../claims/marker.js';
import type { ThreadComment } from '../claims/types.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import type { ClaimChange, LiveClaimSummary } from '../store/board-records.js';
import type { IssueKey } from '../store/store.js';

/** What one reconcile tells the claims board. */
export interface BoardRecords {
  /** The issue's row: its holder, or null when nobody holds it. */
  readonly summary: LiveClaimSummary | null;
  /** The expiries, losses and takeovers the plan wrote. */
  readonly changes: readonly ClaimChange[];
}

/**
 * The board's view of one applied plan (docs/protocol.md §14). Pure: a stale claim finalised
 * while another claim holds the issue is a takeover, without a holder an expiry; a claim that
 * lost the race is a loss. Other finalisations (closed, administrative) are not listed.
 */
export function boardRecordsOf(
  key: IssueKey,
  plan: Plan,
  thread: IssueThread & { readonly meta?: IssueMeta },
  staleAfterMs: number,
  now: Date,
): BoardRecords {
  const repo = `${key.owner}/${key.repo}`;
  const title = thread.meta?.title ?? '';
  const url = thread.meta?.url ?? '';
  const byId = new Map(thread.comments.map((c) => [c.id, c]));
  const holder = plan.holder ? claimOf(byId.get(plan.holder.commentId)) : null;

  const summary: LiveClaimSummary | null =
    holder === null
      ? null
      : {
          installationId: key.installationId,
          repo,
          number: key.number,
          title,
          url,
          commentId: holder.comment.id,
          commentUrl: holder.comment.url ?? url,
          holder: holder.comment.author,
          avatarUrl: holder.comment.avatarUrl ?? '',
          session: holder.marker.session,
          branch: holder.marker.branch,
          stage: holder.marker.stage,
          // The plan's holder carries its paths as the core read them (docs/protocol.md §10).
          paths: [...(plan.holder?.paths ?? [])],
          started: holder.marker.started.toISOString(),
          heartbeat: heartbeat(holder).toISOString(),
          staleAt: staleAt(holder, staleAfterMs).toISOString(),
        };

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
  return { summary, changes };
}

function claimOf(comment: ThreadComment | undefined): ClaimComment | null {
  const marker = comment ? parseClaimMarker(comment.body) : null;
  return comment && marker ? { comment, marker } : null;
}
