import { type IssueKey, issueKeyString } from '../keys.js';
import type { FlaggedPulls } from './flagged-pulls.js';

/** {@link FlaggedPulls} in the process. */
export class MemoryFlaggedPulls implements FlaggedPulls {
  /** Issue key -> pull request number -> the holder (comment and paths) that flagged it. */
  private readonly flagged = new Map<string, Map<number, string>>();

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

  /** Its share of Store.forgetIssue. */
  forget(key: IssueKey): void {
    this.flagged.delete(issueKeyString(key));
  }
}
