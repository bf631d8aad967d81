import { describe, expect, it } from 'vitest';
import { issueHolder, pinnedClaim } from '../../src/claims/issue-holder.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { ThreadComment } from '../../src/claims/types.js';
import { type ClaimSpec, claim, HOUR, NOW } from '../helpers/thread-builder.js';

const PEOPLE = {
  who: 'collaborators',
  labels: [],
  maxClaims: 0,
  staleAfterMs: 14 * 24 * HOUR,
  remindAfterMs: 0,
  expire: 'commands',
  handover: 'maintain',
  pinnedLabel: 'claim:pinned',
} as const;
const CONFIG = { staleAfterMs: 6 * HOUR, people: PEOPLE };

function parsed(spec: ClaimSpec) {
  const comment: ThreadComment = claim(spec);
  const marker = parseClaimMarker(comment.body);
  if (!marker) throw new Error('builder wrote an invalid marker');
  return { comment, marker };
}

describe('issueHolder: one liveness for every surface (docs/protocol.md §3, §16)', () => {
  const stale = parsed({ id: 1, updatedAgoMs: 7 * HOUR });
  const younger = parsed({ id: 2, updatedAgoMs: HOUR });

  it('a claim past its window holds while the issue carries the pinned label', () => {
    const open = { open: true, labels: ['status:in-progress', 'Claim:Pinned'] };
    expect(issueHolder([younger, stale], open, CONFIG, NOW)?.comment.id).toBe(1);
  });

  it('without the label, or with people’s claims off, the stale claim does not hold', () => {
    expect(issueHolder([stale, younger], { open: true, labels: [] }, CONFIG, NOW)?.comment.id).toBe(
      2,
    );
    const off = { staleAfterMs: CONFIG.staleAfterMs };
    const pinned = { open: true, labels: ['claim:pinned'] };
    expect(issueHolder([stale, younger], pinned, off, NOW)?.comment.id).toBe(2);
  });

  it('a pin holds nothing on a closed issue, and never pins a released claim', () => {
    expect(issueHolder([stale], { open: false, labels: ['claim:pinned'] }, CONFIG, NOW)).toBeNull();
    const released = parsed({ id: 0, updatedAgoMs: HOUR, stage: 'released' });
    expect(pinnedClaim([released, stale], ['claim:pinned'], CONFIG)?.comment.id).toBe(1);
  });
});
