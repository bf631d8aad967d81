import { describe, expect, it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { ClaimMarker } from '../../src/claims/types.js';
import { withHeartbeat } from '../../src/read-model/index-heartbeat.js';
import { indexedClaimOf } from '../../src/read-model/indexed-claim-of.js';
import { DEFAULT_CONFIG, HOUR, MINUTE, NOW } from '../helpers/thread-builder.js';

const marker: ClaimMarker = {
  session: 'h:5f4dcc3b5aa7',
  lane: 'h:098f6bcd4621',
  branch: 'feat/x',
  started: new Date(NOW.getTime() - 2 * HOUR),
  updated: new Date(NOW.getTime() - 2 * HOUR),
  stage: 'implementing',
  assignee: 'claim',
};
const posted = new Date(NOW.getTime() - 2 * HOUR);
const body = renderClaimComment(marker, { paths: ['src/a.ts'] });

/** The claim as a reconcile indexed it two hours ago. */
const indexed = indexedClaimOf(
  {
    comment: {
      id: 12,
      author: 'alice',
      authorAssociation: 'COLLABORATOR',
      body,
      createdAt: posted,
      updatedAt: posted,
      avatarUrl: 'https://avatars.githubusercontent.com/u/1?v=4',
    },
    marker: parseClaimMarker(body)!,
  },
  DEFAULT_CONFIG.staleAfterMs,
);

const edit = (changes: Partial<ClaimMarker>, id = 12) => ({
  id,
  body: renderClaimComment({ ...marker, ...changes }, { paths: ['src/a.ts'] }),
  updatedAt: NOW,
});

describe('a heartbeat webhook of the indexed holder', () => {
  it('moves its heartbeat, stage and stale time on, and keeps the rest', () => {
    expect(withHeartbeat(indexed, edit({ updated: NOW, stage: 'review' }))).toEqual({
      ...indexed,
      stage: 'review',
      updated: '2026-11-30T12:00:00Z',
      heartbeat: '2026-11-30T12:00:00Z',
      staleAt: '2026-11-30T18:00:01Z',
      commentUpdatedAt: '2026-11-30T12:00:00Z',
    });
  });

  it.each([
    ['an edit of another comment', edit({ updated: NOW }, 13)],
    ['a release', edit({ updated: NOW, stage: 'released', outcome: 'landed' })],
    ['an edit that removes the marker', { id: 12, body: 'never mind', updatedAt: NOW }],
    [
      'a marker dated more than a window ahead (the clock-skew cap)',
      edit({ updated: new Date(NOW.getTime() + 6 * HOUR + MINUTE) }),
    ],
    [
      'a stage change of a marker last updated over a window ago',
      edit({ updated: new Date(NOW.getTime() - 7 * HOUR), stage: 'review' }),
    ],
  ])('%s renews nothing', (_, comment) => {
    expect(withHeartbeat(indexed, comment)).toBeNull();
  });
});
