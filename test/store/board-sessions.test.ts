import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { MemoryBoardSessions } from '../../src/store/memory-board-sessions.js';
import { RedisBoardSessions } from '../../src/store/redis-board-sessions.js';
import { flushPrefix, uniquePrefix } from '../helpers/redis.js';
import { redisForFile } from '../helpers/redis-for-file.js';
import { describeBoardSessionsContract } from './board-sessions-contract.js';

/** The store suite's database, under a prefix of this file's own. */
const DB = 5;

let redis: Redis;
const runPrefix = `${uniquePrefix('board-sessions-test')}:`;

redisForFile(DB, runPrefix, (client) => {
  redis = client;
});

describeBoardSessionsContract('MemoryBoardSessions', async () => {
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const sessions = new MemoryBoardSessions({ now: () => clock });
  return {
    sessions: [sessions, sessions],
    advance: (ms) => {
      clock += ms;
    },
    cleanup: async () => {},
  };
});

describeBoardSessionsContract('RedisBoardSessions', async () => {
  const prefix = `${runPrefix}${uniquePrefix('case')}:`;
  const replica = () => new RedisBoardSessions({ redis: async () => redis, prefix });
  return {
    sessions: [replica(), replica()],
    cleanup: async () => {
      await flushPrefix(redis, prefix);
    },
  };
});

describe('RedisBoardSessions', () => {
  it('keeps one small key per session, expiring with it, that does not hold the id', async () => {
    const prefix = `${runPrefix}${uniquePrefix('keys')}:`;
    const sessions = new RedisBoardSessions({ redis: async () => redis, prefix });
    await sessions.start('the-session-id', 3_600_000);
    const keys = await redis.keys(`${prefix}*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain('the-session-id');
    const ttl = await redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
    await sessions.end('the-session-id');
    expect(await redis.keys(`${prefix}*`)).toEqual([]);
  });
});

describe('MemoryBoardSessions', () => {
  it('holds no more records than sessions started within one lifetime', async () => {
    let clock = 0;
    const sessions = new MemoryBoardSessions({ now: () => clock });
    for (let i = 0; i < 10_000; i++) {
      await sessions.start(`s-${i}`, 1000);
      clock += 1;
    }
    const size = (sessions as unknown as { expiries: Map<string, number> }).expiries.size;
    expect(size).toBeLessThanOrEqual(1001);
    expect(await sessions.isLive('s-9999')).toBe(true);
    expect(await sessions.isLive('s-0')).toBe(false);
  });
});
