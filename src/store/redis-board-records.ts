import { type BoardRecords, CLAIM_CHANGES_CAP, type ClaimChange } from './board-records.js';
import { RedisPart } from './redis-connection.js';
import { RedisScript } from './redis-script.js';

/**
 * Records a claim change once (its id) and trims the history to the newest ARGV[4]: a sorted
 * set of ids by time, and a hash of id -> JSON, trimmed together so neither grows unbounded.
 */
const recordChangeScript = new RedisScript(`
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[3]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if extra > 0 then
  local old = redis.call('ZRANGE', KEYS[1], 0, extra - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1)
  redis.call('HDEL', KEYS[2], unpack(old))
end
return 1`);

/** {@link BoardRecords} on Redis: `board:changes` (ids by time) and `board:change` (id -> JSON). */
export class RedisBoardRecords extends RedisPart implements BoardRecords {
  async recordClaimChange(change: ClaimChange): Promise<void> {
    await recordChangeScript.run(
      await this.client(),
      [this.key('board', 'changes'), this.key('board', 'change')],
      [change.id, Date.parse(change.at), JSON.stringify(change), CLAIM_CHANGES_CAP],
    );
  }

  async claimChanges(since: Date): Promise<ClaimChange[]> {
    const redis = await this.client();
    const ids = await redis.zrevrangebyscore(this.key('board', 'changes'), '+inf', since.getTime());
    if (ids.length === 0) return [];
    // An id trimmed between the two reads has no JSON any more: it is left out.
    const rows = await redis.hmget(this.key('board', 'change'), ...ids);
    return rows.flatMap((row) => {
      if (row === null) return [];
      // A row that does not parse was written by another version: it is left out too.
      try {
        return [JSON.parse(row) as ClaimChange];
      } catch {
        return [];
      }
    });
  }
}
