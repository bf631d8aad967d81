import { renderClaimComment } from '../src/claims/comment.js';
import { decide } from '../src/claims/decide.js';
import type { DecideConfig } from '../src/claims/decide-config.js';
import type { IssueFacts } from '../src/claims/issue-facts.js';
import type { ThreadComment } from '../src/claims/types.js';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-30T12:00:00Z');
const CONFIG: DecideConfig = {
  staleAfterMs: 6 * HOUR,
  labels: { inProgress: 'status:in-progress', blocked: 'status:blocked' },
  assign: true,
  notifyOnExpiry: true,
  enforceLabels: true,
  trustedBots: [],
};

/**
 * A busy thread of 1,000 comments (the most docs/protocol.md §6 lets the app verify): every tenth one a
 * claim — released ones, a stale one, a holder, and prose between them.
 */
function busyThread(): IssueFacts {
  const comments: ThreadComment[] = [];
  for (let i = 0; i < 1000; i++) {
    const at = new Date(NOW.getTime() - (1000 - i) * 60_000);
    const isClaim = i % 10 === 0;
    const stage = i === 990 ? 'implementing' : 'released';
    const body = isClaim
      ? renderClaimComment({
          session: `h:${i.toString(16).padStart(12, '0')}`,
          lane: 'h:098f6bcd4621',
          branch: `feat/${i}`,
          started: at,
          updated: at,
          stage,
          assignee: 'claim',
          ...(stage === 'released' ? { outcome: 'landed' as const } : {}),
        })
      : `A remark of some length, number ${i}, about the work.\n`.repeat(4);
    comments.push({
      id: 1_000_000 + i,
      author: `user${i % 7}`,
      authorAssociation: i % 3 === 0 ? 'COLLABORATOR' : 'CONTRIBUTOR',
      body,
      createdAt: at,
      updatedAt: at,
    });
  }
  return {
    open: true,
    stateReason: null,
    isPullRequest: false,
    labels: ['status:in-progress'],
    assignees: ['user3'],
    comments,
    appLogin: 'claim-warden[bot]',
    hints: [],
  };
}

/** decide() calls per second on a 1,000-comment thread. */
export async function benchDecide(): Promise<Array<{ name: string; opsPerSec: number }>> {
  const facts = busyThread();
  for (let i = 0; i < 50; i++) decide(facts, CONFIG, NOW);
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < 1000) {
    decide(facts, CONFIG, NOW);
    calls++;
  }
  const seconds = (performance.now() - start) / 1000;
  return [{ name: 'decide() on a 1,000-comment thread', opsPerSec: calls / seconds }];
}
