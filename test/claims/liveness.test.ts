import { describe, expect, it } from 'vitest';
import {
  findHolder,
  heartbeat,
  isLive,
  isStale,
  staleAt,
  staleSince,
} from '../../src/claims/liveness.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { ThreadComment } from '../../src/claims/types.js';
import { type ClaimSpec, claim, HOUR, NOW } from '../helpers/thread-builder.js';

const WINDOW = 6 * HOUR;
const SECOND = 1000;

function parsed(spec: ClaimSpec) {
  const comment: ThreadComment = claim(spec);
  const marker = parseClaimMarker(comment.body);
  if (!marker) throw new Error('builder wrote an invalid marker');
  return { comment, marker };
}

describe('heartbeat (docs/protocol.md §3)', () => {
  it('is the marker time when GitHub recorded a later edit', () => {
    const c = parsed({ id: 1, updatedAgoMs: 2 * HOUR, editedAgoMs: 1 * HOUR });
    expect(heartbeat(c)).toEqual(new Date(NOW.getTime() - 2 * HOUR));
  });

  it('is GitHub’s updated_at when the marker claims a fresher time', () => {
    const c = parsed({ id: 1, updatedAgoMs: 0, editedAgoMs: 7 * HOUR });
    expect(heartbeat(c)).toEqual(new Date(NOW.getTime() - 7 * HOUR));
    expect(isStale(c, WINDOW, NOW)).toBe(true);
  });
});

describe('the stale window edge (docs/protocol.md §3)', () => {
  it.each([
    ['a fresh claim is live', 0, false],
    ['one second short of the window is live', WINDOW - SECOND, false],
    ['exactly one window old is still live', WINDOW, false],
    ['one second more is stale', WINDOW + SECOND, true],
    ['a day old is stale', 24 * HOUR, true],
    ['exactly one window in the future is live', -WINDOW, false],
    ['more than one window in the future is stale (skew cap)', -WINDOW - SECOND, true],
  ])('%s', (_name, ageMs, stale) => {
    // Both clocks agree here; the heartbeat rule itself is tested above.
    const c = parsed({ id: 1, updatedAgoMs: ageMs, editedAgoMs: ageMs });
    expect(isStale(c, WINDOW, NOW)).toBe(stale);
  });

  it('turns stale at staleAt and not a second before', () => {
    const c = parsed({ id: 1, updatedAgoMs: 0 });
    const at = staleAt(c, WINDOW);
    expect(isStale(c, WINDOW, new Date(at.getTime() - 1))).toBe(false);
    expect(isStale(c, WINDOW, at)).toBe(true);
  });
});

describe('the clock-skew cap reads the marker, whatever GitHub recorded (docs/protocol.md §3)', () => {
  it.each([
    ['a marker exactly one window ahead is live', WINDOW, false],
    ['a marker one second more than a window ahead is stale', WINDOW + SECOND, true],
    ['a marker a day ahead is stale', 24 * HOUR, true],
    ['a marker a minute ahead is live', 60 * SECOND, false],
  ])('%s, though GitHub recorded the comment just now', (_name, aheadMs, stale) => {
    const c = parsed({ id: 1, updatedAgoMs: -aheadMs, editedAgoMs: 0 });
    expect(isStale(c, WINDOW, NOW)).toBe(stale);
    expect(isLive(c, true, WINDOW, NOW)).toBe(!stale);
  });

  it('a claim over the cap never holds, and an older honest claim does', () => {
    const skewed = parsed({ id: 1, updatedAgoMs: -WINDOW - SECOND, editedAgoMs: 0 });
    const honest = parsed({ id: 2 });
    expect(findHolder([skewed, honest], true, WINDOW, NOW)?.comment.id).toBe(2);
  });

  it.each([
    ['an aged claim went stale one window after its heartbeat', 7 * HOUR, 7 * HOUR, -HOUR],
    [
      'a claim over the cap was stale when GitHub recorded it',
      -7 * HOUR,
      10 * 60 * SECOND,
      -10 * 60 * SECOND,
    ],
  ])('%s', (_name, updatedAgoMs, editedAgoMs, sinceFromNowMs) => {
    const c = parsed({ id: 1, updatedAgoMs, editedAgoMs });
    expect(staleSince(c, WINDOW, NOW)).toEqual(new Date(NOW.getTime() + sinceFromNowMs));
  });
});

describe('liveness (docs/protocol.md §3)', () => {
  it.each([
    ['an open, fresh, unreleased claim is live', { id: 1 }, true, true],
    ['a released claim is not live', { id: 1, stage: 'released' as const }, true, false],
    ['a claim on a closed issue is not live', { id: 1 }, false, false],
    ['a stale claim is not live', { id: 1, updatedAgoMs: 7 * HOUR }, true, false],
  ])('%s', (_name, spec, open, live) => {
    expect(isLive(parsed(spec), open, WINDOW, NOW)).toBe(live);
  });
});

describe('the holder (docs/protocol.md §3)', () => {
  it('is the oldest live claim by comment id, whatever the order given', () => {
    const claims = [parsed({ id: 30 }), parsed({ id: 10 }), parsed({ id: 20 })];
    expect(findHolder(claims, true, WINDOW, NOW)?.comment.id).toBe(10);
  });

  it('skips released and stale claims interleaved with live ones', () => {
    const claims = [
      parsed({ id: 1, stage: 'released', outcome: 'landed' }),
      parsed({ id: 2, updatedAgoMs: 8 * HOUR }),
      parsed({ id: 3, stage: 'review' }),
      parsed({ id: 4 }),
    ];
    expect(findHolder(claims, true, WINDOW, NOW)?.comment.id).toBe(3);
  });

  it('is nobody on a closed issue or when nothing is live', () => {
    expect(findHolder([parsed({ id: 1 })], false, WINDOW, NOW)).toBeNull();
    expect(findHolder([parsed({ id: 1, stage: 'released' })], true, WINDOW, NOW)).toBeNull();
    expect(findHolder([], true, WINDOW, NOW)).toBeNull();
  });
});
