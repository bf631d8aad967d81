import { type ClaimComment, heartbeat } from './liveness.js';
import { pathLineOf } from './paths.js';
import type { AgentHolder, HolderSummary } from './plan.js';

/** The holder as the client, the logs and the index see it. */
export function holderSummary(holder: ClaimComment): AgentHolder {
  const line = pathLineOf(holder.comment.body);
  return {
    kind: 'agent',
    commentId: holder.comment.id,
    author: holder.comment.author,
    session: holder.marker.session,
    stage: holder.marker.stage,
    lane: holder.marker.lane,
    branch: holder.marker.branch,
    started: holder.marker.started,
    updated: holder.marker.updated,
    heartbeat: heartbeat(holder),
    ...(holder.marker.assignee ? { assignee: holder.marker.assignee } : {}),
    ...(holder.comment.url ? { url: holder.comment.url } : {}),
    paths: line.kind === 'valid' ? line.paths : [],
    ...(line.kind === 'invalid' ? { pathProblem: line.problem } : {}),
  };
}

/** The holder when it is an agent's claim comment: sessions, branches and paths are agents' only. */
export function agentHolder(holder: HolderSummary | null): AgentHolder | null {
  return holder?.kind === 'agent' ? holder : null;
}
