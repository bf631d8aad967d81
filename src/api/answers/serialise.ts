import type { DecideConfig } from '../../claims/decide-config.js';
import type { ClaimComment } from '../../claims/liveness.js';
import { formatClaimTime } from '../../claims/marker.js';
import type { AgentHolder, PersonHolder } from '../../claims/plan.js';
import {
  claimFieldsOf,
  type PublicClaim,
  type PublicIssue,
  personClaimFieldsOf,
  publicClaimOf,
  staleAtOf,
} from '../../claims/public-claim.js';
import type { IssueMeta, IssueThread } from '../../github/thread.js';
import type { IssueKey } from '../../keys.js';
import { issueRef } from '../../keys.js';
import { indexedIssueOf } from '../../read-model/indexed-issue-of.js';
import type { IndexedIssue } from '../../store/store.js';

/**
 * A claim comment as the claim object (docs/protocol.md §8), with the paths of its path line
 * when it is valid, and with `grace` (§17) its `graceUntil`. `GET …/claim`, the work queue,
 * the MCP tool and `claim-warden list` all render claims through publicClaimOf, so they show
 * the same fields.
 */
export function claimObject(
  key: IssueKey,
  claim: ClaimComment,
  staleAfterMs: number,
  graceMs = 0,
): PublicClaim {
  return publicClaimOf(issueRef(key), claimFieldsOf(claim, staleAfterMs, graceMs));
}

/** The holder of another issue, as its own thread showed it, as the claim object. */
export function holderObject(
  key: IssueKey,
  holder: AgentHolder,
  staleAfterMs: number,
): PublicClaim {
  return publicClaimOf(issueRef(key), {
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

/** The issue object of an issue just read: the index's fields, with its `state`. */
export function issueObject(key: IssueKey, thread: IssueThread & { meta: IssueMeta }): PublicIssue {
  const { repo, number, title, url, ...rest } = queueIssueObject(indexedIssueOf(key, thread));
  return { repo, number, title, url, state: thread.open ? 'open' : 'closed', ...rest };
}

/** An indexed issue as the queue's issue object (docs/protocol.md §9: no `state`, all are open). */
export function queueIssueObject(issue: IndexedIssue): PublicIssue {
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

/**
 * A person's claim as the claim object (docs/protocol.md §16), judged by the window of
 * `people.staleAfter`.
 */
export function personObject(
  key: IssueKey,
  holder: PersonHolder,
  config: Pick<DecideConfig, 'staleAfterMs' | 'people'>,
): PublicClaim {
  const staleAfterMs = config.people?.staleAfterMs ?? config.staleAfterMs;
  return publicClaimOf(issueRef(key), personClaimFieldsOf(holder, staleAfterMs));
}
