import { RedisScript } from '../store/redis-script.js';

/*
 * The Lua scripts of the BullMQ queue (the design and its races are written down in
 * docs/replicas.md). Each changes the per-issue records in one atomic step.
 *
 * Admission, for fairness across installations (docs/protocol.md §6): at most `cap` issues
 * of one installation I have a job at a time; they are the members of admitted:I. Further
 * issues of I keep their requests in pending:K as usual but get no job: they wait in parked:I
 * (score: arrival order). When an admitted issue has nothing left to run it leaves admitted:I
 * and the oldest parked issues of I take its place (the caller adds their jobs). BullMQ's list
 * thus never holds more than `cap` jobs of one installation: a burst of thousands in one puts
 * another's job at most a few places from the front, and with more worker slots than `cap`
 * it starts at once. parked-index lists the installations that have parked issues.
 * The helpers below build the keys of other issues from the namespace, as BullMQ's own
 * scripts do with its prefix: on a Redis Cluster that prefix is a hash tag, so every key is
 * in the slot of the keys the script was given (src/redis/keyspace.ts).
 */
const ADMISSION = `
local function admit_next(admitted, parked, parkedIndex, installation, ns, cap)
  local out = {}
  while redis.call('SCARD', admitted) < cap do
    local popped = redis.call('ZPOPMIN', parked)
    if #popped == 0 then break end
    local id = popped[1]
    -- A parked issue whose requests a stray job served already needs no job.
    if redis.call('EXISTS', ns .. 'pending:' .. id) == 1 then
      redis.call('SADD', admitted, id)
      out[#out + 1] = id
      out[#out + 1] = tonumber(redis.call('GET', ns .. 'gen:' .. id) or '0')
    end
  end
  if redis.call('EXISTS', parked) == 0 then
    redis.call('SREM', parkedIndex, installation)
  end
  return out
end
local function admit(id, admitted, parked, parkedIndex, installation, seq, ns, cap)
  if redis.call('SISMEMBER', admitted, id) == 1 or redis.call('SCARD', admitted) < cap then
    redis.call('SADD', admitted, id)
    redis.call('ZREM', parked, id)
    return {id, tonumber(redis.call('GET', ns .. 'gen:' .. id) or '0')}
  end
  if not redis.call('ZSCORE', parked, id) then
    redis.call('ZADD', parked, redis.call('INCR', seq), id)
  end
  redis.call('SADD', parkedIndex, installation)
  return {}
end
`;

/**
 * KEYS: pending, seq, pending index, admitted, parked, parked index. ARGV: issue,
 * installation, namespace, cap, members... Adds new members in arrival order, indexes the
 * issue as pending, and admits (or parks) it. Returns {issue, gen} to add a job for, or {}
 * when the issue was parked.
 */
export const enqueueScript = new RedisScript(`${ADMISSION}
for i = 5, #ARGV do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[2]), ARGV[i])
  end
end
redis.call('SADD', KEYS[3], ARGV[1])
return admit(ARGV[1], KEYS[4], KEYS[5], KEYS[6], ARGV[2], KEYS[2], ARGV[3], tonumber(ARGV[4]))`);

/**
 * KEYS: lock, pending, running, pending index, running index, held. ARGV: token, ttl, issue.
 * {'held', ms} while the installation waits out a rate limit; {'locked'} when the issue
 * is locked; else takes the lock and returns {'taken', running ∪ pending...} (oldest first),
 * which becomes the new running.
 */
export const takeScript = new RedisScript(`
local held = redis.call('PTTL', KEYS[6])
if held > 0 then
  return {'held', held}
end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {'locked'}
end
redis.call('ZUNIONSTORE', KEYS[3], 2, KEYS[3], KEYS[2], 'AGGREGATE', 'MIN')
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[4], ARGV[3])
local members = redis.call('ZRANGE', KEYS[3], 0, -1)
if #members > 0 then
  redis.call('SADD', KEYS[5], ARGV[3])
end
table.insert(members, 1, 'taken')
return members`);

/**
 * KEYS: lock, running, pending, gen, running index, admitted, parked, parked index. ARGV:
 * token, job gen, gen ttl, issue, installation, namespace, cap. Ends a run: see the finish in
 * docs/replicas.md. Returns {'lost'} when another holder has the lock, {'again', issue,
 * gen} when requests are pending, else {'done', issue, gen, ...}: the parked issues admitted in
 * its place, each to add a job for.
 */
export const finishScript = new RedisScript(`${ADMISSION}
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
  return {'again', ARGV[4], gen}
end
redis.call('SREM', KEYS[6], ARGV[4])
local admitted = admit_next(KEYS[6], KEYS[7], KEYS[8], ARGV[5], ARGV[6], tonumber(ARGV[7]))
table.insert(admitted, 1, 'done')
return admitted`);

/**
 * KEYS: pending, seq, pending index, admitted, parked, parked index, running, lock. ARGV:
 * issue, installation, namespace, cap, given up (1 or 0). With requests pending: admits (or
 * parks) the issue as enqueue does. Without: the issue leaves the pending index and, unless a
 * run holds it or (BullMQ not having given its job up) left records to retry, its admission,
 * so the parked issues next in line are admitted. Returns {issue, gen, ...} to add jobs for.
 */
export const ensureScript = new RedisScript(`${ADMISSION}
if redis.call('EXISTS', KEYS[1]) == 1 then
  return admit(ARGV[1], KEYS[4], KEYS[5], KEYS[6], ARGV[2], KEYS[2], ARGV[3], tonumber(ARGV[4]))
end
redis.call('SREM', KEYS[3], ARGV[1])
if redis.call('EXISTS', KEYS[8]) == 1 then return {} end
if ARGV[5] ~= '1' and redis.call('EXISTS', KEYS[7]) == 1 then return {} end
if redis.call('SREM', KEYS[4], ARGV[1]) == 0 then return {} end
return admit_next(KEYS[4], KEYS[5], KEYS[6], ARGV[2], ARGV[3], tonumber(ARGV[4]))`);

/** KEYS: parked index. ARGV: namespace. The issues parked in every installation (depth). */
export const parkedScript = new RedisScript(`
local total = 0
for _, installation in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  total = total + redis.call('ZCARD', ARGV[1] .. 'parked:' .. installation)
end
return total`);

/**
 * KEYS: held. ARGV: ms. Holds an installation's work for `ms` (a rate limit GitHub asked to
 * wait out); a longer hold already set is kept.
 */
export const holdScript = new RedisScript(`
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 1`);
