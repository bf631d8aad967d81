import type { ChainableCommander } from 'ioredis';
import { type IssueKey, repoKeyString } from '../keys.js';
import type { IndexedPathHolder, PathHolder, PathHolders } from './path-holders.js';
import { RedisPart } from './redis-connection.js';

/** A path holder as the Redis index stores it (JSON; heartbeat in epoch ms). */
interface StoredPathHolder {
  readonly commentId: number;
  readonly session: string;
  readonly author: string;
  readonly branch: string;
  readonly heartbeat: number;
  readonly paths: readonly string[];
}

/** {@link PathHolders} on Redis: one hash `paths:<repo>` per repository, field = issue number. */
export class RedisPathHolders extends RedisPart implements PathHolders {
  async setPathHolder(key: IssueKey, holder: PathHolder | null): Promise<void> {
    const redis = await this.client();
    const hash = this.key('paths', repoKeyString(key));
    if (holder === null || holder.paths.length === 0) {
      await redis.hdel(hash, String(key.number));
      return;
    }
    const stored: StoredPathHolder = {
      commentId: holder.commentId,
      session: holder.session,
      author: holder.author,
      branch: holder.branch,
      heartbeat: holder.heartbeat.getTime(),
      paths: [...holder.paths],
    };
    await redis.hset(hash, String(key.number), JSON.stringify(stored));
  }

  async pathHolders(
    installationId: number,
    owner: string,
    repo: string,
  ): Promise<IndexedPathHolder[]> {
    const fields = await (await this.client()).hgetall(
      this.key('paths', repoKeyString({ installationId, owner, repo })),
    );
    const holders: IndexedPathHolder[] = [];
    for (const [field, value] of Object.entries(fields)) {
      const holder = readPathHolder(Number(field), value);
      // An entry this version cannot read was written by someone else: skipping it is safe,
      // as that issue's next reconcile writes it again.
      if (holder !== null) holders.push(holder);
    }
    return holders.sort((a, b) => a.number - b.number);
  }

  /** Its share of Store.forgetIssue, in the store's one MULTI. */
  forget(write: ChainableCommander, key: IssueKey): void {
    write.hdel(this.key('paths', repoKeyString(key)), String(key.number));
  }
}

/** Reads one stored path holder; null when the value is not one. */
function readPathHolder(number: number, value: string): IndexedPathHolder | null {
  let parsed: Partial<StoredPathHolder>;
  try {
    parsed = JSON.parse(value) as Partial<StoredPathHolder>;
  } catch {
    return null;
  }
  const { commentId, session, author, branch, heartbeat, paths } = parsed;
  if (!Number.isSafeInteger(number) || typeof commentId !== 'number') return null;
  if (typeof session !== 'string' || typeof author !== 'string' || typeof branch !== 'string') {
    return null;
  }
  if (typeof heartbeat !== 'number' || !Array.isArray(paths)) return null;
  if (!paths.every((p): p is string => typeof p === 'string')) return null;
  return { number, commentId, session, author, branch, heartbeat: new Date(heartbeat), paths };
}
