import { formatClaimTime } from '../claims/marker.js';
import { type IssueKey, issueKeyString, type RepoKey, repoPrefix } from '../keys.js';
import {
  type HoldRecord,
  holdOf,
  holdRecord,
  type IndexedClaim,
  type IndexedEntry,
  type IndexedIssue,
  type OpenIssues,
} from './open-issues.js';

/** {@link OpenIssues} in the process: the issues and their claims, by issue key. */
export class MemoryOpenIssues implements OpenIssues {
  private readonly issues = new Map<string, IndexedIssue>();
  private readonly claims = new Map<string, HoldRecord>();

  async putOpenIssue(issue: IndexedIssue): Promise<void> {
    const id = issueKeyString(issue.key);
    const indexed = this.issues.get(id);
    if (indexed !== undefined && indexed.updatedAt > issue.updatedAt) return;
    this.issues.set(id, issue);
  }

  async dropOpenIssue(key: IssueKey): Promise<void> {
    const id = issueKeyString(key);
    this.issues.delete(id);
    this.claims.delete(id);
  }

  async replaceOpenIssues(
    repo: RepoKey,
    issues: readonly IndexedIssue[],
    listedAt: Date,
  ): Promise<void> {
    const listed = new Set(issues.map((issue) => issueKeyString(issue.key)));
    const prefix = repoPrefix(repo);
    const cutoff = formatClaimTime(listedAt);
    for (const [id, issue] of this.issues) {
      if (!id.startsWith(prefix) || listed.has(id) || issue.updatedAt >= cutoff) continue;
      this.issues.delete(id);
      this.claims.delete(id);
    }
    for (const issue of issues) await this.putOpenIssue(issue);
  }

  async setIssueClaim(
    key: IssueKey,
    claim: IndexedClaim | null,
    waitlist?: readonly string[],
  ): Promise<void> {
    const record = holdRecord(claim, waitlist);
    if (record === null) this.claims.delete(issueKeyString(key));
    else this.claims.set(issueKeyString(key), record);
  }

  async issueClaim(key: IssueKey): Promise<IndexedClaim | null> {
    return holdOf(this.claims.get(issueKeyString(key))).claim;
  }

  async renewIssueClaim(key: IssueKey, claim: IndexedClaim): Promise<boolean> {
    const id = issueKeyString(key);
    const indexed = holdOf(this.claims.get(id)).claim;
    // A person's claim has no comment to renew: reconciles record it (docs/protocol.md §16).
    if (indexed === null || claim.commentId === null || indexed.commentId !== claim.commentId) {
      return false;
    }
    if (indexed.commentUpdatedAt >= claim.commentUpdatedAt) return false;
    this.claims.set(id, claim);
    return true;
  }

  async openIssues(): Promise<IndexedEntry[]> {
    const entries: IndexedEntry[] = [];
    for (const [id, issue] of this.issues) {
      entries.push({ issue, ...holdOf(this.claims.get(id)) });
    }
    return entries;
  }
}
