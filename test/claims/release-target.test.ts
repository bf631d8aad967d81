import { describe, expect, it } from 'vitest';
import type { DecideConfig } from '../../src/claims/decide-config.js';
import { releaseTarget } from '../../src/claims/release-target.js';
import { trustedClaims } from '../../src/claims/trusted-claims.js';
import { claim, DEFAULT_CONFIG, HOUR, MINUTE, NOW } from '../helpers/thread-builder.js';

/** A six-hour window and one hour of grace (docs/protocol.md §17). */
const GRACE: DecideConfig = { ...DEFAULT_CONFIG, graceMs: HOUR };
const OPEN = { open: true, labels: [] };

/** Alice's claim of session s-alice, last heard of `agoMs` ago. */
const alices = (agoMs: number) =>
  trustedClaims([claim({ id: 1, by: 'alice', session: 's-alice', updatedAgoMs: agoMs })], []);

describe('the claim a release finalises (docs/protocol.md §8, §17)', () => {
  it.each([
    ['live', 'alice', 's-alice', 1 * HOUR, GRACE, 1],
    ['live', 'bob', 's-alice', 1 * HOUR, GRACE, null],
    ['in grace', 'alice', 's-alice', 6 * HOUR + 20 * MINUTE, GRACE, 1],
    ['in grace', 'Alice', 's-alice', 6 * HOUR + 20 * MINUTE, GRACE, 1],
    ['in grace', 'alice', 's-other', 6 * HOUR + 20 * MINUTE, GRACE, null],
    ['in grace', 'bob', 's-alice', 6 * HOUR + 20 * MINUTE, GRACE, null],
    ['past its grace', 'alice', 's-alice', 7 * HOUR + 20 * MINUTE, GRACE, null],
    ['stale, no grace', 'alice', 's-alice', 6 * HOUR + 20 * MINUTE, DEFAULT_CONFIG, null],
  ] as const)(
    '%s, released by %s’s session %s: comment %s',
    (_, login, session, agoMs, config, id) => {
      const target = releaseTarget(alices(agoMs), OPEN, config, { login, session }, NOW);
      expect(target?.comment.id ?? null).toBe(id);
    },
  );

  it('an administrative release takes the live holder only, never a claim in grace', () => {
    const admin = { administrative: true } as const;
    expect(releaseTarget(alices(HOUR), OPEN, GRACE, admin, NOW)?.comment.id).toBe(1);
    expect(releaseTarget(alices(6 * HOUR + 20 * MINUTE), OPEN, GRACE, admin, NOW)).toBeNull();
  });
});
