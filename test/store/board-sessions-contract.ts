import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BoardSessions } from '../../src/store/board-sessions.js';
import { sleep } from '../helpers/redis.js';

/** One BoardSessions under test; `advance` moves its clock, else expiry waits in real time. */
export interface BoardSessionsFixture {
  /** Two handles on the same records, as two replicas have (the same one in memory). */
  readonly sessions: readonly [BoardSessions, BoardSessions];
  advance?(ms: number): void;
  cleanup(): Promise<void>;
}

/** A short TTL: real enough for Redis's expiry, short enough to keep the suite fast. */
const TTL = 80;
/** Comfortably past {@link TTL}, so Redis has expired the key when a test looks again. */
const PAST_TTL = 160;
const HOUR = 3_600_000;

/**
 * What every {@link BoardSessions} does (the embedded and the Redis one): the board relies
 * on the interface (docs/protocol.md §14: sign-out ends the session for every copy).
 */
export function describeBoardSessionsContract(
  name: string,
  make: () => Promise<BoardSessionsFixture>,
): void {
  describe(`${name} (BoardSessions contract)`, () => {
    let fixture: BoardSessionsFixture;
    let one: BoardSessions;
    let two: BoardSessions;

    beforeEach(async () => {
      fixture = await make();
      [one, two] = fixture.sessions;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    async function pass(ms: number): Promise<void> {
      if (fixture.advance) fixture.advance(ms);
      else await sleep(ms);
    }

    it('a started session is live everywhere; one never started is not', async () => {
      await one.start('s-1', HOUR);
      expect(await one.isLive('s-1')).toBe(true);
      expect(await two.isLive('s-1')).toBe(true);
      expect(await two.isLive('s-2')).toBe(false);
    });

    it('ending a session ends it everywhere, and only the first end says it was live', async () => {
      await one.start('s-1', HOUR);
      await one.start('s-2', HOUR);
      expect(await two.end('s-1')).toBe(true);
      expect(await one.isLive('s-1')).toBe(false);
      expect(await one.end('s-1')).toBe(false);
      expect(await two.isLive('s-2')).toBe(true);
      expect(await one.end('never-started')).toBe(false);
    });

    it('of concurrent ends of one session exactly one was live', async () => {
      await one.start('s-race', HOUR);
      const ends = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).end('s-race')),
      );
      expect(ends.filter(Boolean)).toHaveLength(1);
    });

    it('a session is over once its lifetime has passed', async () => {
      await one.start('s-short', TTL);
      await one.start('s-long', HOUR);
      await pass(PAST_TTL);
      expect(await two.isLive('s-short')).toBe(false);
      expect(await two.end('s-short')).toBe(false);
      expect(await two.isLive('s-long')).toBe(true);
    });

    it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a TTL of %s', async (ttl) => {
      await expect(one.start('s-bad', ttl)).rejects.toThrow(RangeError);
      expect(await one.isLive('s-bad')).toBe(false);
    });
  });
}
