/**
 * docs/protocol.md §13's retry schedule, jittered: events that failed together (a receiver
 * down) come back spread out, not in one burst, and every wait keeps the §13 rules.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventRetryDelay, nextEventAttemptIn } from '../../src/events/retry-schedule.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `event-${i}`);

describe('the events retry schedule', () => {
  it('a hundred events refused at once retry at a hundred different moments', () => {
    const firsts = ids(100).map((id) => eventRetryDelay(1, id));
    expect(new Set(firsts).size).toBeGreaterThan(90);
    const tenths = ids(100).map((id) => eventRetryDelay(10, id));
    expect(new Set(tenths).size).toBeGreaterThan(90);
  });

  it('the first retry comes within 30 s; each wait is half to all of the doubled backoff', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 60 }), (id, retry) => {
        const backoff = Math.min(30 * 60_000, 5_000 * 2 ** (retry - 1));
        const wait = eventRetryDelay(retry, id);
        expect(wait).toBeGreaterThanOrEqual(backoff / 2);
        expect(wait).toBeLessThanOrEqual(backoff);
        if (retry === 1) expect(wait).toBeLessThanOrEqual(30_000);
      }),
    );
  });

  it('one event’s retry has the same wait however often it is asked (every replica agrees)', () => {
    expect(eventRetryDelay(3, 'e-1')).toBe(eventRetryDelay(3, 'e-1'));
    expect(nextEventAttemptIn(3, 'e-1', 0, 1000)).toBe(eventRetryDelay(3, 'e-1'));
  });

  it('an event is given up once its next attempt would start past the 24 h window', () => {
    const day = 24 * 3_600_000;
    expect(nextEventAttemptIn(50, 'e-1', 0, day - 60 * 60_000)).not.toBeNull();
    expect(nextEventAttemptIn(50, 'e-1', 0, day)).toBeNull();
  });
});
