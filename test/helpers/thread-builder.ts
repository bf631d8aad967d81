import { renderClaimComment } from '../../src/claims/comment.js';
import type { DecideConfig } from '../../src/claims/decide-config.js';
import type { IssueFacts } from '../../src/claims/issue-facts.js';
import type { ClaimMarker, Hint, ThreadComment } from '../../src/claims/types.js';

/** The fixed clock of the pure-core tests. */
export const NOW = new Date('2026-11-30T12:00:00Z');
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

/** The operator defaults of docs/protocol.md §7, as decide() receives them. */
export const DEFAULT_CONFIG: DecideConfig = {
  staleAfterMs: 6 * HOUR,
  labels: { inProgress: 'status:in-progress', blocked: 'status:blocked' },
  assign: true,
  notifyOnExpiry: true,
  enforceLabels: true,
  trustedBots: [],
};

export const APP_LOGIN = 'claim-warden[bot]';

/** What a test says about one claim comment; everything has a sensible default. */
export interface ClaimSpec {
  id: number;
  by?: string;
  association?: string;
  session?: string;
  stage?: ClaimMarker['stage'];
  outcome?: ClaimMarker['outcome'];
  assignee?: ClaimMarker['assignee'] | null;
  /** How long ago the marker's `updated` is (default 0: just now). */
  updatedAgoMs?: number;
  /** How long ago GitHub's `updated_at` is (default: same as the marker). */
  editedAgoMs?: number;
  /** How long ago the comment was posted (default: the larger of the two ages). */
  postedAgoMs?: number;
}

/** A claim comment as GitHub would return it. */
export function claim(spec: ClaimSpec): ThreadComment {
  const updatedAgo = spec.updatedAgoMs ?? 0;
  const editedAgo = spec.editedAgoMs ?? updatedAgo;
  const postedAgo = spec.postedAgoMs ?? Math.max(updatedAgo, editedAgo);
  const marker: ClaimMarker = {
    session: spec.session ?? `session-${spec.id}`,
    lane: 'lane-a',
    branch: `feat/${spec.id}`,
    started: new Date(NOW.getTime() - postedAgo),
    updated: new Date(NOW.getTime() - updatedAgo),
    stage: spec.stage ?? 'claimed',
    ...(spec.assignee === null ? {} : { assignee: spec.assignee ?? 'claim' }),
    ...(spec.outcome ? { outcome: spec.outcome } : {}),
  };
  return {
    id: spec.id,
    author: spec.by ?? 'alice',
    authorAssociation: spec.association ?? 'COLLABORATOR',
    body: renderClaimComment(marker),
    createdAt: new Date(NOW.getTime() - postedAgo),
    updatedAt: new Date(NOW.getTime() - editedAgo),
  };
}

/** A plain comment (no marker). */
export function remark(id: number, body: string, by = 'carol'): ThreadComment {
  return {
    id,
    author: by,
    authorAssociation: 'CONTRIBUTOR',
    body,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

/** Facts of an open issue with no labels, assignees or hints unless given. */
export function facts(partial: Partial<IssueFacts> & { hints?: Hint[] } = {}): IssueFacts {
  return {
    open: true,
    stateReason: null,
    isPullRequest: false,
    labels: [],
    assignees: [],
    comments: [],
    appLogin: APP_LOGIN,
    hints: [],
    ...partial,
  };
}
