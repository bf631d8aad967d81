import { type IssueKey, issueKeyString } from '../keys.js';
import { assertTtl } from './assert-ttl.js';
import type { IssueNotes } from './issue-notes.js';

/** {@link IssueNotes} in the process: one map per note, by issue key. */
export class MemoryIssueNotes implements IssueNotes {
  private readonly holders = new Map<string, number>();
  /** Issue key -> when its first 404/410 stops counting (epoch ms). */
  private readonly gone = new Map<string, number>();
  private readonly appAssigned = new Map<string, readonly string[]>();

  constructor(private readonly now: () => number) {}

  async setHolder(key: IssueKey, commentId: number | null): Promise<void> {
    if (commentId === null) this.holders.delete(issueKeyString(key));
    else this.holders.set(issueKeyString(key), commentId);
  }

  async holderOf(key: IssueKey): Promise<number | null> {
    return this.holders.get(issueKeyString(key)) ?? null;
  }

  async noteIssueGone(key: IssueKey, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const id = issueKeyString(key);
    const now = this.now();
    const until = this.gone.get(id);
    if (until !== undefined && until > now) return true;
    this.gone.set(id, now + ttlMs);
    return false;
  }

  async clearIssueGone(key: IssueKey): Promise<void> {
    this.gone.delete(issueKeyString(key));
  }

  async appAssignees(key: IssueKey): Promise<readonly string[]> {
    return this.appAssigned.get(issueKeyString(key)) ?? [];
  }

  async setAppAssignees(key: IssueKey, logins: readonly string[]): Promise<void> {
    if (logins.length === 0) this.appAssigned.delete(issueKeyString(key));
    else this.appAssigned.set(issueKeyString(key), [...logins]);
  }

  /** Its share of Store.forgetIssue. */
  forget(key: IssueKey): void {
    const id = issueKeyString(key);
    this.holders.delete(id);
    this.gone.delete(id);
    this.appAssigned.delete(id);
  }
}
