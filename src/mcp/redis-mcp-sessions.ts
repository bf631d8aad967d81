import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/connect-redis.js';
import type { McpSessionRecord, McpSessions } from './mcp-sessions.js';

// KEYS: the session's key, the caller's set. ARGV: member, record, now, expiry, idleMs, max.
// Atomic, so two replicas opening a caller's last free session at once cannot both succeed.
const START = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then return 0 end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[5])
return 1`;

/** Options of {@link redisMcpSessions}. */
interface RedisMcpSessionsOptions {
  /** The connection to use, once up (the app shares the RedisStore's: `store.connection()`). */
  readonly redis: () => Promise<RedisClient>;
  /** Prefix of every key written (the store's, e.g. `claims:`). */
  readonly prefix: string;
  readonly now?: () => number;
}

/**
 * {@link McpSessions} on Redis (any number of replicas): one key per session holding its
 * record (`SET … PX idle`), and per caller a sorted set of its sessions by expiry, which caps
 * them. Keys hold hashes of the session id and of the token, never either.
 */
export function redisMcpSessions(options: RedisMcpSessionsOptions): McpSessions {
  const now = options.now ?? Date.now;
  const hash = (text: string) => createHash('sha256').update(text).digest('base64url');
  const sessionKey = (member: string) => `${options.prefix}mcp-session:${member}`;
  const callerKey = (tokenHash: string) => `${options.prefix}mcp-sessions:${tokenHash}`;
  const read = async (redis: RedisClient, member: string, tokenHash: string) => {
    const text = await redis.get(sessionKey(member));
    if (text === null) return null;
    const record = JSON.parse(text) as McpSessionRecord;
    return record.tokenHash === tokenHash ? record : null;
  };
  return {
    async start(id, record, idleMs, max) {
      const redis = await options.redis();
      const member = hash(id);
      const at = now();
      const started = await redis.eval(
        START,
        2,
        sessionKey(member),
        callerKey(record.tokenHash),
        member,
        JSON.stringify(record),
        String(at),
        String(at + idleMs),
        String(Math.ceil(idleMs)),
        String(max),
      );
      return started === 1;
    },
    async touch(id, tokenHash, idleMs) {
      const redis = await options.redis();
      const member = hash(id);
      const record = await read(redis, member, tokenHash);
      if (!record) return null;
      await redis
        .multi()
        .pexpire(sessionKey(member), Math.ceil(idleMs))
        .zadd(callerKey(tokenHash), 'XX', now() + idleMs, member)
        .pexpire(callerKey(tokenHash), Math.ceil(idleMs))
        .exec();
      return record;
    },
    async end(id, tokenHash) {
      const redis = await options.redis();
      const member = hash(id);
      if (!(await read(redis, member, tokenHash))) return false;
      const [deleted] = (await redis
        .multi()
        .del(sessionKey(member))
        .zrem(callerKey(tokenHash), member)
        .exec()) ?? [[null, 0]];
      return deleted?.[1] === 1;
    },
  };
}
