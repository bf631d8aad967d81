import type { ChainableCommander } from 'ioredis';
import { type IssueKey, type RepoKey, repoKeyString } from '../keys.js';
import type { BranchHolder, BranchHolders, IndexedBranchHolder } from './branch-holders.js';
import type { RedisKeys } from './redis-connection.js';

/** A branch holder as the Redis index stores it (JSON; heartbeat in epoch ms). */
interface StoredBranchHolder {
  readonly commentId: number;
  readonly author: string;
  readonly branch: string;
  readonly heartbeat: number;
}

/** {@link BranchHolders} on Redis: a hash `branches:<repo>` per repository, by issue number. */
export class RedisBranchHolders implements BranchHolders {
  constructor(private readonly db: RedisKeys) {}

  async setBranchHolder(key: IssueKey, holder: BranchHolder | null): Promise<void> {
    const redis = await this.db.client();
    const hash = this.db.key('branches', repoKeyString(key));
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
    const fields = await (await this.db.client()).hgetall(
      this.db.key('branches', repoKeyString(repo)),
    );
    const holders: IndexedBranchHolder[] = [];
    for (const [field, value] of Object.entries(fields)) {
      const holder = readBranchHolder(Number(field), value);
      if (holder !== null && holder.branch === branch) holders.push(holder);
    }
    return holders.sort((a, b) => a.number - b.number);
  }

  /** Its share of Store.forgetIssue, in the store's one MULTI. */
  forget(write: ChainableCommander, key: IssueKey): void {
    write.hdel(this.db.key('branches', repoKeyString(key)), String(key.number));
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
