import { type IssueKey, repoKeyString } from '../keys.js';
import type { IndexedPathHolder, PathHolder, PathHolders } from './path-holders.js';

/** {@link PathHolders} in the process: per repository, the holders by issue number (copied). */
export class MemoryPathHolders implements PathHolders {
  private readonly index = new Map<string, Map<number, PathHolder>>();

  async setPathHolder(key: IssueKey, holder: PathHolder | null): Promise<void> {
    const repo = repoKeyString(key);
    const holders = this.index.get(repo) ?? new Map<number, PathHolder>();
    if (holder === null || holder.paths.length === 0) holders.delete(key.number);
    else {
      const heartbeat = new Date(holder.heartbeat.getTime());
      holders.set(key.number, { ...holder, heartbeat, paths: [...holder.paths] });
    }
    if (holders.size === 0) this.index.delete(repo);
    else this.index.set(repo, holders);
  }

  async pathHolders(
    installationId: number,
    owner: string,
    repo: string,
  ): Promise<IndexedPathHolder[]> {
    const holders = this.index.get(repoKeyString({ installationId, owner, repo }));
    if (holders === undefined) return [];
    return [...holders]
      .map(([number, holder]) => ({ number, ...holder, heartbeat: new Date(holder.heartbeat) }))
      .sort((a, b) => a.number - b.number);
  }
}
