import type { HolderSummary } from '../claims/decide.js';
import type { ClaimComment } from '../claims/liveness.js';
import { formatClaimTime } from '../claims/marker.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import { issueRef } from '../keys.js';
import { indexedClaimOf, staleAtOf } from '../read-model/indexed-claim-of.js';
import { indexedIssueOf } from '../read-model/indexed-issue-of.js';
import type { IndexedClaim, IndexedIssue } from '../store/store.js';

/** The claim object of docs/protocol.md §8. */
export interface ClaimObject {
  readonly issue: string;
  readonly commentId: number;
  readonly url: string;
  readonly author: string;
  readonly session: string;
  readonly lane: string;
  readonly branch: string;
  readonly stage: string;
  readonly started: string;
  readonly updated: string;
  readonly heartbeat: string;
  readonly staleAt: string;
  readonly assignee: string | null;
  /** Only on a released claim. */
  readonly outcome?: string;
  /** Only on a claim that names paths (a valid path line, docs/protocol.md §10), canonical. */
  readonly paths?: readonly string[];
}

/** The issue object of docs/protocol.md §8 (§9's, plus `state`). */
export interface IssueObject {
  readonly repo: string;
  readonly number: number;
  readonly title: string;
  readonly url: string;
  readonly state?: 'open' | 'closed';
  readonly labels: readonly string[];
  readonly assignees: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A claim comment as the claim object, with the paths of its path line when it is valid. */
export function claimObject(key: IssueKey, claim: ClaimComment, staleAfterMs: number): ClaimObject {
  return withIssue(key, indexedClaimOf(claim, staleAfterMs, claim.marker.outcome));
}

/** The holder of another issue, as its own thread showed it, as the claim object. */
export function holderObject(
  key: IssueKey,
  holder: HolderSummary,
  staleAfterMs: number,
): ClaimObject {
  return withIssue(key, {
    commentId: holder.commentId,
    url: holder.url ?? '',
    author: holder.author,
    session: holder.session,
    lane: holder.lane,
    branch: holder.branch,
    stage: holder.stage,
    started: formatClaimTime(holder.started),
    updated: formatClaimTime(holder.updated),
    heartbeat: formatClaimTime(holder.heartbeat),
    staleAt: staleAtOf(holder.heartbeat, staleAfterMs),
    ...(holder.assignee ? { assignee: holder.assignee } : {}),
    ...(holder.paths.length > 0 ? { paths: holder.paths } : {}),
  });
}

/** A claim as the claim object shows it: the index's claim less the avatar and its order key. */
export type ClaimFields = Omit<IndexedClaim, 'avatarUrl' | 'commentUpdatedAt'> & {
  readonly outcome?: string;
};

/**
 * A claim of the index (or of a thread just read) as the claim object. The one rendering of a
 * claim: `GET …/claim`, the work queue's items, the MCP tool and `claim-warden list` all show
 * the same fields, `paths` included when the claim names any.
 */
export function withIssue(key: IssueKey, claim: ClaimFields): ClaimObject {
  return {
    issue: issueRef(key),
    commentId: claim.commentId,
    url: claim.url,
    author: claim.author,
    session: claim.session,
    lane: claim.lane,
    branch: claim.branch,
    stage: claim.stage,
    started: claim.started,
    updated: claim.updated,
    heartbeat: claim.heartbeat,
    staleAt: claim.staleAt,
    assignee: claim.assignee ?? null,
    ...(claim.outcome ? { outcome: claim.outcome } : {}),
    ...(claim.paths ? { paths: claim.paths } : {}),
  };
}

/** The issue object of an issue just read: the index's fields, with its `state`. */
export function issueObject(key: IssueKey, thread: IssueThread & { meta: IssueMeta }): IssueObject {
  const { repo, number, title, url, ...rest } = queueIssueObject(indexedIssueOf(key, thread));
  return { repo, number, title, url, state: thread.open ? 'open' : 'closed', ...rest };
}

/** An indexed issue as the queue's issue object (docs/protocol.md §9: no `state`, all are open). */
export function queueIssueObject(issue: IndexedIssue): IssueObject {
  return {
    repo: `${issue.key.owner}/${issue.key.repo}`,
    number: issue.key.number,
    title: issue.title,
    url: issue.url,
    labels: issue.labels,
    assignees: issue.assignees,
    createdAt: issue.createdAt,
    updatedAt: issue.updatedAt,
  };
}
