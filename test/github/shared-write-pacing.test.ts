/**
 * The deployment's write pacing (docs/replicas.md "Write pacing"): replicas on one Redis take
 * their installation's starts from one schedule; while Redis cannot answer, each process
 * paces alone.
 */
import type { Redis } from 'ioredis';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { sharedWritePacing } from '../../src/github/shared-write-pacing.js';
import { writePacing } from '../../src/github/write-pacing.js';
import type { RedisClient } from '../../src/redis/connect-redis.js';
import { waitFor } from '../helpers/app-harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { uniquePrefix } from '../helpers/redis.js';
import { redisForFile } from '../helpers/redis-for-file.js';

const RUN = uniquePrefix('cw-pacing');
let redis: Redis;
redisForFile(7, `${RUN}:`, (client) => {
  redis = client;
});
let counter = 0;

/** `replicas` pacings on one Redis prefix and one clock the test moves. */
function replicas(count: number, options: { down?: boolean } = {}) {
  const clock = manualClock();
  const prefix = `${RUN}:${++counter}:`;
  const pacings = Array.from({ length: count }, () =>
    sharedWritePacing({
      redis: options.down
        ? () => Promise.reject(new Error('Redis is down'))
        : () => Promise.resolve(redis as RedisClient),
      prefix,
      writeMs: 1000,
      clock,
      fallback: writePacing({ writeMs: 1000, clock }),
      log: pino({ level: 'silent' }),
    }),
  );
  return { clock, pacings };
}

describe('write pacing shared on Redis', () => {
  it('three replicas writing for one installation start a second apart; another installation at once', async () => {
    const { clock, pacings } = replicas(3);
    const started: string[] = [];
    void pacings[0]!.write.key('7').schedule({}, () => started.push('7.0'));
    await waitFor(() => started.length === 1, 'the first write');
    void pacings[1]!.write.key('7').schedule({}, () => started.push('7.1'));
    await waitFor(() => clock.held.length === 1, 'the second to wait');
    void pacings[2]!.write.key('7').schedule({}, () => started.push('7.2'));
    await waitFor(() => clock.held.length === 2, 'the third to wait');
    void pacings[0]!.write.key('8').schedule({}, () => started.push('8'));
    await waitFor(() => started.length === 2, 'the other installation’s write');
    expect(started).toEqual(['7.0', '8']);
    // Before (each replica alone): all three of installation 7 started at once.
    expect(clock.held).toEqual([
      { at: 1000, ms: 1000 },
      { at: 2000, ms: 2000 },
    ]);
    clock.advance(1000);
    await waitFor(() => started.length === 3, 'the second write');
    clock.advance(1000);
    await waitFor(() => started.length === 4, 'the third write');
    expect(started).toEqual(['7.0', '8', '7.1', '7.2']);
  });

  it('writes that notify are three seconds apart for the installation', async () => {
    const { clock, pacings } = replicas(2);
    const started: number[] = [];
    void pacings[0]!.notifications.key('7').schedule({}, () => started.push(clock.now()));
    await waitFor(() => started.length === 1, 'the first notifying write');
    void pacings[1]!.notifications.key('7').schedule({}, () => started.push(clock.now()));
    await waitFor(() => clock.held.length === 1, 'the second to wait');
    expect(clock.held).toEqual([{ at: 3000, ms: 3000 }]);
    clock.advance(3000);
    await waitFor(() => started.length === 2, 'the second notifying write');
    expect(started).toEqual([0, 3000]);
  });

  it('while Redis cannot answer, each replica paces its own writes', async () => {
    const { clock, pacings } = replicas(2, { down: true });
    const started: string[] = [];
    for (const [i, pacing] of pacings.entries()) {
      void pacing.write.key('7').schedule({}, () => started.push(`a${i}`));
      void pacing.write.key('7').schedule({}, () => started.push(`b${i}`));
    }
    await waitFor(() => started.length === 2 && clock.held.length === 2, 'each replica’s first');
    expect(started.sort()).toEqual(['a0', 'a1']);
    clock.advance(1000);
    await waitFor(() => started.length === 4, 'each replica’s second');
    expect(started.sort()).toEqual(['a0', 'a1', 'b0', 'b1']);
  });
});
