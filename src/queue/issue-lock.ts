import { randomUUID } from 'node:crypto';
import { keepLease, type Lease } from '../fence/lease.js';
import type { RedisClient } from '../redis/connect-redis.js';
import { releaseLockScript } from '../store/lock-scripts.js';

/**
 * The per-issue mutual exclusion that reconciles run under (docs/protocol.md §5), offered to
 * work that is not a queued reconcile: an API call on an issue (§8) reads, writes and
 * reconciles it while no reconcile of it runs anywhere, and no reconcile starts meanwhile.
 */

/** The issue stayed locked longer than the caller was willing to wait. */
export class IssueLockTimeoutError extends Error {
  override readonly name = 'IssueLockTimeoutError';
  constructor(
    readonly issue: string,
    readonly waitedMs: number,
  ) {
    super(`issue ${issue} stayed locked for ${waitedMs} ms; try again shortly`);
  }
}

/** How long {@link exclusiveInProcess} and {@link exclusiveOnRedis} wait for the lock. */
interface IssueLockOptions {
  /** Give up (IssueLockTimeoutError) after this long (default 15000 ms). */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Runs `fn` as the issue's one running entry in `running`, the map the embedded queue keeps
 * of issues being reconciled: it waits while a reconcile (or another exclusive call) of the
 * issue runs, and the queue starts none while `fn` does. `released` lets the queue schedule
 * whatever arrived meanwhile, so such a request runs once more afterwards, never zero times.
 */
export async function exclusiveInProcess<T>(
  running: Map<string, Promise<void>>,
  id: string,
  fn: () => Promise<T>,
  released: () => void,
  options: IssueLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = Date.now();
  for (let current = running.get(id); current !== undefined; current = running.get(id)) {
    const left = timeoutMs - (Date.now() - started);
    if (left <= 0 || !(await settlesWithin(current, left))) {
      throw new IssueLockTimeoutError(id, Date.now() - started);
    }
  }
  // No await between the check above and this line: nothing can take the issue in between.
  let done: () => void = () => {};
  const entry = new Promise<void>((resolve) => {
    done = resolve;
  });
  running.set(id, entry);
  try {
    return await fn();
  } finally {
    done();
    if (running.get(id) === entry) running.delete(id);
    released();
  }
}

/** Options of {@link exclusiveOnRedis}. */
interface RedisIssueLockOptions extends IssueLockOptions {
  /** The lock's lease, renewed every third of it while `fn` runs (the queue's issueLockMs). */
  readonly ttlMs: number;
  /** Pause between attempts to take a held lock (default 25 ms). */
  readonly retryMs?: number;
}

/**
 * Runs `fn` holding the Redis lock `lockKey`, the same `lock:K` record the shared queue's
 * TAKE script sets: SET NX PX with a random token, renewed while `fn` runs, released only by
 * that token. A reconcile whose TAKE finds it held is delayed and retried, as the queue does
 * for a reconcile of the issue running on another replica. `fn` gets the lease its writes
 * check (src/fence/lease.ts).
 */
export async function exclusiveOnRedis<T>(
  redis: RedisClient,
  lockKey: string,
  fn: (lease: Lease) => Promise<T>,
  options: RedisIssueLockOptions,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retryMs = options.retryMs ?? 25;
  const ttlMs = Math.ceil(options.ttlMs);
  const token = randomUUID();
  const started = Date.now();
  for (;;) {
    const takenAt = performance.now();
    if ((await redis.set(lockKey, token, 'PX', ttlMs, 'NX')) === 'OK') {
      const { lease, stop } = keepLease(redis, lockKey, token, ttlMs, takenAt);
      try {
        return await fn(lease);
      } finally {
        stop();
        await releaseWithRetry(redis, lockKey, token, ttlMs);
      }
    }
    if (Date.now() - started >= timeoutMs) {
      throw new IssueLockTimeoutError(lockKey, Date.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, retryMs));
  }
}

/**
 * Releases the lock held with `token`. A release that fails (the connection lost or stalled)
 * is retried in the background every third of the lease until the lease is over (the lock has
 * then expired by itself), so a connection that comes back frees the issue at once.
 */
async function releaseWithRetry(
  redis: RedisClient,
  lockKey: string,
  token: string,
  ttlMs: number,
): Promise<void> {
  const release = () =>
    releaseLockScript.run(redis, [lockKey], [token]).then(
      () => true,
      () => false,
    );
  if (await release()) return;
  const giveUpAt = Date.now() + ttlMs;
  const retry = setInterval(
    () =>
      void release().then((done) => {
        if (done || Date.now() >= giveUpAt) clearInterval(retry);
      }),
    Math.max(10, Math.floor(ttlMs / 3)),
  );
  retry.unref();
}

/** Whether `work` settles (either way) within `ms`. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
