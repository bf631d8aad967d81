import { type IssueKey, issueKeyString, type RepoKey, repoKeyString } from '../keys.js';
import type { BranchHolder, GuardRecords, IndexedBranchHolder } from './guard-records.js';

/** {@link GuardRecords} in the process: holders by repository and number (copied), pulls by issue. */
export class MemoryGuardRecords implements GuardRecords {
  private readonly index = new Map<string, Map<number, BranchHolder>>();
  /** Issue key -> pull request number -> the holder (comment and paths) that flagged it. */
  private readonly flagged = new Map<string, Map<number, string>>();

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

  async flagPull(key: IssueKey, by: string, pull: number): Promise<void> {
    const id = issueKeyString(key);
    const pulls = this.flagged.get(id) ?? new Map<number, string>();
    pulls.set(pull, by);
    this.flagged.set(id, pulls);
  }

  async takeFlaggedPulls(key: IssueKey, keep: string | null): Promise<number[]> {
    const id = issueKeyString(key);
    const pulls = this.flagged.get(id);
    if (pulls === undefined) return [];
    const taken: number[] = [];
    for (const [pull, by] of pulls) {
      if (by === keep) continue;
      taken.push(pull);
      pulls.delete(pull);
    }
    if (pulls.size === 0) this.flagged.delete(id);
    return taken.sort((a, b) => a - b);
  }
}
