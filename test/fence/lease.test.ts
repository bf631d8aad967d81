import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { keepLease, LockLease, LockLostError } from '../../src/fence/lease.js';
import { uniquePrefix } from '../helpers/redis.js';
import { redisForFile } from '../helpers/redis-for-file.js';
import { waitFor, waitUntil } from '../replicas/harness.js';

/** The queue suite's database, under a prefix of this file's own. */
const DB = 6;
const runPrefix = uniquePrefix('cw-lease');
let redis: Redis;
redisForFile(DB, runPrefix, (client) => {
  redis = client;
});

/** A clock the test moves. */
function clock(at = 1000) {
  return {
    now: () => at,
    to(ms: number) {
      at = ms;
    },
  };
}

describe('LockLease', () => {
  it('holds until a fifth of the lease before the lock could expire, then refuses every write', () => {
    const time = clock(1000);
    const lease = new LockLease('lock:7/acme/widgets#1', 10_000, 1000, time);
    time.to(8999);
    expect(() => lease.check()).not.toThrow();
    expect(lease.signal.aborted).toBe(false);
    time.to(9000);
    expect(() => lease.check()).toThrow(LockLostError);
    expect(() => lease.check()).toThrow(
      /lock:7\/acme\/widgets#1 may have passed to another replica/,
    );
    expect(lease.signal.aborted).toBe(true);
    lease.end();
  });

  it('a renewal carries it on from when the renewal was sent', () => {
    const time = clock(0);
    const lease = new LockLease('lock:K', 10_000, 0, time);
    lease.confirmed(3000);
    time.to(10_999);
    expect(() => lease.check()).not.toThrow();
    // An older renewal answered late takes nothing back.
    lease.confirmed(1000);
    expect(() => lease.check()).not.toThrow();
    time.to(11_000);
    expect(() => lease.check()).toThrow(LockLostError);
    lease.end();
  });

  it('once lost, it stays lost: a renewal answered afterwards does not revive it', () => {
    const time = clock(0);
    const lease = new LockLease('lock:K', 10_000, 0, time);
    lease.lost();
    expect(lease.signal.aborted).toBe(true);
    lease.confirmed(0);
    expect(() => lease.check()).toThrow(LockLostError);
    lease.end();
  });

  it('aborts its signal by itself when the lease runs out, with no write asking', async () => {
    const lease = new LockLease('lock:K', 50, performance.now());
    await waitFor(() => lease.signal.aborted, 'the lease to run out');
    // An AbortError, not the lease's own error: octokit's retry passes an AbortError on.
    expect(lease.signal.reason).toBeInstanceOf(DOMException);
    expect((lease.signal.reason as DOMException).name).toBe('AbortError');
  });
});

describe('keepLease on Redis', () => {
  it('renews the lock while the run lasts; a lock found another’s ends the lease at once', async () => {
    const lock = `${runPrefix}:lock:1`;
    await redis.set(lock, 'mine', 'PX', 3000);
    const lost: string[] = [];
    const { lease, stop } = keepLease(redis, lock, 'mine', 3000, performance.now(), (why) =>
      lost.push(why),
    );
    try {
      // Renewed every third of the lease: its time to live goes back up while the run goes on.
      const ttl = () => redis.pttl(lock);
      await waitUntil(async () => (await ttl()) < 2500, 'the lock to age');
      await waitUntil(async () => (await ttl()) > 2600, 'the lock to be renewed', { everyMs: 10 });
      expect(await redis.get(lock)).toBe('mine');
      expect(() => lease.check()).not.toThrow();

      // Another replica holds it now (this one's lapsed while it could not renew).
      await redis.set(lock, 'theirs', 'PX', 3000);
      await waitFor(() => lease.signal.aborted, 'the renewal to find the lock another’s');
      expect(lost).toContain('lost');
      expect(() => lease.check()).toThrow(LockLostError);
      expect(await redis.get(lock)).toBe('theirs');
    } finally {
      stop();
    }
  });
});
