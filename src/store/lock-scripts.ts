import { RedisScript } from './redis-script.js';

/*
 * The token-checked steps of a Redis lock taken with SET NX PX and a random token: the store's
 * named locks and the work queue's per-issue `lock:K` (its TAKE script and exclusive calls).
 */

/**
 * KEYS: lock. ARGV: token, ttl. Extends the lock only while `token` holds it; an expired lock
 * stays expired.
 */
export const extendLockScript = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`);

/**
 * KEYS: lock. ARGV: token. Deletes the lock only while `token` holds it, so a holder whose lock
 * expired frees nothing.
 */
export const releaseLockScript = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);
