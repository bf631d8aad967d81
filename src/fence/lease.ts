import type { RedisClient } from '../redis/connect-redis.js';
import { extendLockScript } from '../store/lock-scripts.js';

/**
 * The fence of an issue's writes (docs/replicas.md "Fenced writes"): a run that holds the issue's
 * Redis lock writes to GitHub only while it can be sure the lock is still its own. The lock is a
 * lease: another replica may take it once it went unrenewed for a whole lease (the holder's
 * event loop froze, its Redis connection stalled), and from then on the old holder's view of
 * the thread is stale. GitHub cannot check a token, so the holder checks before each write.
 */

/** What a run's writes ask before they go out. */
export interface Lease {
  /** Throws {@link LockLostError} once the lock may be another's; else returns. */
  check(): void;
  /**
   * Aborted once the lock may be another's: given to each write's request, so a write that
   * waited (write pacing) is not sent after the lease ran out.
   */
  readonly signal: AbortSignal;
}

/** The run's lock may be another replica's: it writes nothing more, and is tried again. */
export class LockLostError extends Error {
  override readonly name = 'LockLostError';
  constructor(readonly lock: string) {
    super(
      `the lock ${lock} may have passed to another replica (not renewed within its lease): ` +
        'nothing more written; the issue is reconciled again',
    );
  }
}

/** The time a lease reads; tests pass one they drive. */
interface LeaseClock {
  /** Milliseconds on a monotonic scale. */
  now(): number;
}

const MONOTONIC: LeaseClock = { now: () => performance.now() };

/**
 * A lease of `ttlMs` on `lock`, confirmed each time the lock is taken or renewed. It ends
 * `ttlMs / 5` before the lock could expire, counted from when the confirming command was sent
 * (Redis set the expiry later, never earlier): the margin covers a write already on its way to
 * GitHub when the lease ends. Lost for good once a renewal finds the lock another's.
 */
export class LockLease implements Lease {
  readonly #lock: string;
  readonly #ttlMs: number;
  readonly #clock: LeaseClock;
  readonly #controller = new AbortController();
  #endsAt: number;
  #timer: NodeJS.Timeout | undefined;

  /** `takenAt`: when the command that took the lock was sent, on `clock`. */
  constructor(lock: string, ttlMs: number, takenAt: number, clock: LeaseClock = MONOTONIC) {
    this.#lock = lock;
    this.#ttlMs = ttlMs;
    this.#clock = clock;
    this.#endsAt = Number.NEGATIVE_INFINITY;
    this.confirmed(takenAt);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The lock was renewed by a command sent at `sentAt`. */
  confirmed(sentAt: number): void {
    if (this.#controller.signal.aborted) return;
    this.#endsAt = Math.max(this.#endsAt, sentAt + this.#ttlMs - this.#ttlMs / 5);
    this.#arm();
  }

  /** A renewal found the lock gone or another's. */
  lost(): void {
    clearTimeout(this.#timer);
    // No reason given: fetch then fails with an AbortError, which octokit's retry passes on.
    this.#controller.abort();
  }

  check(): void {
    if (!this.#controller.signal.aborted && this.#clock.now() >= this.#endsAt) this.lost();
    if (this.#controller.signal.aborted) throw new LockLostError(this.#lock);
  }

  /** The run is over: no timer is left behind. */
  end(): void {
    clearTimeout(this.#timer);
  }

  /** Aborts the signal when the lease ends (a timer may fire early on another clock: re-armed). */
  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => (this.#clock.now() >= this.#endsAt ? this.lost() : this.#arm()),
      Math.max(1, this.#endsAt - this.#clock.now()),
    );
    this.#timer.unref();
  }
}

/**
 * Holds `lock` (taken with `token` by a command sent at `takenAt`) while a run lasts: renews it
 * every third of `ttlMs` and keeps the returned lease true. `stop` ends the renewal;
 * `onFailedRenewal` hears of a renewal that found the lock another's (`lost`) or got no answer.
 */
export function keepLease(
  redis: RedisClient,
  lock: string,
  token: string,
  ttlMs: number,
  takenAt: number,
  onFailedRenewal: (why: 'lost' | 'unanswered', err?: unknown) => void = () => {},
): { readonly lease: Lease; stop(): void } {
  const lease = new LockLease(lock, ttlMs, takenAt);
  const renew = async () => {
    const sentAt = performance.now();
    try {
      if ((await extendLockScript.run(redis, [lock], [token, ttlMs])) === 1)
        lease.confirmed(sentAt);
      else {
        lease.lost();
        onFailedRenewal('lost');
      }
    } catch (err) {
      onFailedRenewal('unanswered', err);
    }
  };
  const timer = setInterval(() => void renew(), Math.max(10, Math.floor(ttlMs / 3)));
  return {
    lease,
    stop: () => {
      clearInterval(timer);
      lease.end();
    },
  };
}
