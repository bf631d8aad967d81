import type { ChainableCommander } from 'ioredis';
import { type IssueKey, issueKeyString, type RepoKey, repoKeyString } from '../keys.js';
import type { BranchHolder, GuardRecords, IndexedBranchHolder } from './guard-records.js';
import { RedisPart } from './redis-connection.js';
import { RedisScript } from './redis-script.js';

/** A branch holder as the Redis index stores it (JSON; heartbeat in epoch ms). */
interface StoredBranchHolder {
  readonly commentId: number;
  readonly author: string;
  readonly branch: string;
  readonly heartbeat: number;
}

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

/**
 * {@link GuardRecords} on Redis: a hash `branches:<repo>` per repository (field = issue
 * number, value = the holder as JSON), and a hash `flagged:<issue>` per issue (field = pull
 * number, value = the flagging holder's tag).
 */
export class RedisGuardRecords extends RedisPart implements GuardRecords {
  async setBranchHolder(key: IssueKey, holder: BranchHolder | null): Promise<void> {
    const redis = await this.client();
    const hash = this.key('branches', repoKeyString(key));
    if (holder === null) {
      await redis.hdel(hash, String(key.number));
      return;
    }
    const stored: StoredBranchHolder = {
      commentId: holder.commentId,
      author: holder.author,
      branch: holder.branch,
      heartbeat: holder.heartbeat.getTime(),
    };
    await redis.hset(hash, String(key.number), JSON.stringify(stored));
  }

  async branchHolders(repo: RepoKey, branch: string): Promise<IndexedBranchHolder[]> {
    const fields = await (await this.client()).hgetall(this.key('branches', repoKeyString(repo)));
    const holders: IndexedBranchHolder[] = [];
    for (const [field, value] of Object.entries(fields)) {
      const holder = readBranchHolder(Number(field), value);
      if (holder !== null && holder.branch === branch) holders.push(holder);
    }
    return holders.sort((a, b) => a.number - b.number);
  }

  async flagPull(key: IssueKey, by: string, pull: number): Promise<void> {
    await (await this.client()).hset(this.key('flagged', issueKeyString(key)), String(pull), by);
  }

  async takeFlaggedPulls(key: IssueKey, keep: string | null): Promise<number[]> {
    // A tag is never empty, so '' keeps nothing.
    const reply = (await takeFlaggedScript.run(
      await this.client(),
      [this.key('flagged', issueKeyString(key))],
      [keep ?? ''],
    )) as string[];
    return reply.map(Number).sort((a, b) => a - b);
  }

  /** Its share of Store.forgetIssue, in the store's one MULTI. */
  forget(write: ChainableCommander, key: IssueKey): void {
    write
      .hdel(this.key('branches', repoKeyString(key)), String(key.number))
      .del(this.key('flagged', issueKeyString(key)));
  }
}

/** Reads one stored branch holder; null when the value is not one (another version's). */
function readBranchHolder(number: number, value: string): IndexedBranchHolder | null {
  let parsed: Partial<StoredBranchHolder>;
  try {
    parsed = JSON.parse(value) as Partial<StoredBranchHolder>;
  } catch {
    return null;
  }
  const { commentId, author, branch, heartbeat } = parsed;
  if (typeof commentId !== 'number' || typeof author !== 'string') return null;
  if (typeof branch !== 'string' || typeof heartbeat !== 'number') return null;
  return { number, commentId, author, branch, heartbeat: new Date(heartbeat) };
}
