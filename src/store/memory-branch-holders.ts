import { type IssueKey, type RepoKey, repoKeyString } from '../keys.js';
import type { BranchHolder, BranchHolders, IndexedBranchHolder } from './branch-holders.js';

/** {@link BranchHolders} in the process: per repository, the holders by issue number (copied). */
export class MemoryBranchHolders implements BranchHolders {
  private readonly index = new Map<string, Map<number, BranchHolder>>();

  async setBranchHolder(key: IssueKey, holder: BranchHolder | null): Promise<void> {
    const repo = repoKeyString(key);
    const holders = this.index.get(repo) ?? new Map<number, BranchHolder>();
    if (holder === null) holders.delete(key.number);
    else holders.set(key.number, { ...holder, heartbeat: new Date(holder.heartbeat) });
    if (holders.size === 0) this.index.delete(repo);
    else this.index.set(repo, holders);
  }

  async branchHolders(repo: RepoKey, branch: string): Promise<IndexedBranchHolder[]> {
    const holders = this.index.get(repoKeyString(repo));
    if (holders === undefined) return [];
    return [...holders]
      .filter(([, holder]) => holder.branch === branch)
      .map(([number, holder]) => ({ number, ...holder, heartbeat: new Date(holder.heartbeat) }))
      .sort((a, b) => a.number - b.number);
  }

  /** Its share of Store.forgetIssue. */
  forget(key: IssueKey): void {
    void this.setBranchHolder(key, null);
  }
}
