import type { ChainableCommander } from 'ioredis';
import { type IssueKey, issueKeyString } from '../keys.js';
import type { FlaggedPulls } from './flagged-pulls.js';
import type { RedisKeys } from './redis-connection.js';
import { RedisScript } from './redis-script.js';

/**
 * Removes and returns the fields of a flagged-pulls hash whose holder tag is not ARGV[1], in
 * one step, so two replicas re-checking one issue's pulls never both take one pull.
 */
const takeFlaggedScript = new RedisScript(`
local entries = redis.call('HGETALL', KEYS[1])
local taken = {}
for i = 1, #entries, 2 do
  if entries[i + 1] ~= ARGV[1] then
    redis.call('HDEL', KEYS[1], entries[i])
    taken[#taken + 1] = entries[i]
  end
end
return taken`);

/** {@link FlaggedPulls} on Redis: one hash `flagged:<issue>`, field = pull number, value = tag. */
export class RedisFlaggedPulls implements FlaggedPulls {
  constructor(private readonly db: RedisKeys) {}

  async flagPull(key: IssueKey, by: string, pull: number): Promise<void> {
    await (await this.db.client()).hset(
      this.db.key('flagged', issueKeyString(key)),
      String(pull),
      by,
    );
  }

  async takeFlaggedPulls(key: IssueKey, keep: string | null): Promise<number[]> {
    // A tag is never empty, so '' keeps nothing.
    const reply = (await takeFlaggedScript.run(
      await this.db.client(),
      [this.db.key('flagged', issueKeyString(key))],
      [keep ?? ''],
    )) as string[];
    return reply.map(Number).sort((a, b) => a - b);
  }

  /** Its share of Store.forgetIssue, in the store's one MULTI. */
  forget(write: ChainableCommander, key: IssueKey): void {
    write.del(this.db.key('flagged', issueKeyString(key)));
  }
}
