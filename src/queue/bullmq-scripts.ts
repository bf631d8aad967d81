import { RedisScript } from '../store/redis-store.js';

/*
 * The Lua scripts of the BullMQ queue (the design and its races are written down at the top
 * of bullmq-queue.ts). Each changes the per-issue records in one atomic step.
 */

/**
 * KEYS: pending, gen, seq, pending index. ARGV: issue, members... Adds new members in arrival
 * order, indexes the issue as pending, and returns gen.
 */
export const enqueueScript = new RedisScript(`
for i = 2, #ARGV do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[i])
  end
end
redis.call('SADD', KEYS[4], ARGV[1])
return tonumber(redis.call('GET', KEYS[2]) or '0')`);

/**
 * KEYS: lock, pending, running, pending index, running index. ARGV: token, ttl, issue. Nil
 * when the issue is locked; else takes the lock and returns running ∪ pending (oldest first),
 * which becomes the new running.
 */
export const takeScript = new RedisScript(`
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return false
end
redis.call('ZUNIONSTORE', KEYS[3], 2, KEYS[3], KEYS[2], 'AGGREGATE', 'MIN')
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[4], ARGV[3])
local members = redis.call('ZRANGE', KEYS[3], 0, -1)
if #members > 0 then
  redis.call('SADD', KEYS[5], ARGV[3])
end
return members`);

/**
 * KEYS: lock, running, pending, gen, running index. ARGV: token, job gen, gen ttl, issue.
 * Ends a run: see FINISH above. Returns {'lost'} when another holder has the lock,
 * {'again', gen} when requests are pending, {'done'} otherwise.
 */
export const finishScript = new RedisScript(`
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then
  return {'lost'}
end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[5], ARGV[4])
local gen = tonumber(redis.call('GET', KEYS[4]) or '0')
if gen == tonumber(ARGV[2]) then
  gen = redis.call('INCR', KEYS[4])
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
end
if redis.call('EXISTS', KEYS[3]) == 1 then
  return {'again', gen}
end
return {'done'}`);

/**
 * KEYS: pending, gen, pending index. ARGV: issue. The gen to add a job for when requests are
 * pending, else -1 (and the issue leaves the index).
 */
export const ensureScript = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  return tonumber(redis.call('GET', KEYS[2]) or '0')
end
redis.call('SREM', KEYS[3], ARGV[1])
return -1`);

/** KEYS: lock. ARGV: token, ttl. Extends the lock only while `token` holds it. */
export const extendScript = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`);

/** KEYS: lock. ARGV: token. Releases the lock only while `token` holds it. */
export const releaseScript = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);
