import { type IssueKey, issueKeyString } from '../keys.js';
import { assertTtl } from './assert-ttl.js';
import type { HolderRef, IssueRecords } from './issue-records.js';
import { MinHeap } from './min-heap.js';

interface Deadline {
  readonly key: IssueKey;
  readonly at: number;
  /** Bumped on every change, so heap entries of earlier values are recognised as stale. */
  readonly version: number;
}

interface DeadlineEntry {
  readonly id: string;
  readonly at: number;
  readonly version: number;
}

/** Stale heap entries are dropped in bulk once they outnumber live ones by this much. */
const COMPACT_SLACK = 1024;

/**
 * {@link IssueRecords} in the process. The deadline index is a min-heap with lazy deletion, so
 * the sweep's `dueIssues` costs O(k log n) for k due issues even when 100,000 are indexed.
 */
export class MemoryIssueRecords implements IssueRecords {
  private readonly deadlines = new Map<string, Deadline>();
  private readonly heap = new MinHeap<DeadlineEntry>(earlierDeadline);
  private version = 0;
  private readonly holders = new Map<string, HolderRef>();
  /** Issue key -> when its first 404/410 stops counting (epoch ms). */
  private readonly gone = new Map<string, number>();
  private readonly appAssigned = new Map<string, readonly string[]>();

  constructor(private readonly now: () => number) {}

  async setDeadline(key: IssueKey, at: Date | null): Promise<void> {
    const id = issueKeyString(key);
    if (at === null) {
      // Lazy deletion: the heap entry stays until it surfaces or a compaction drops it.
      this.deadlines.delete(id);
    } else {
      const deadline = { key, at: at.getTime(), version: ++this.version };
      this.deadlines.set(id, deadline);
      this.heap.push({ id, at: deadline.at, version: deadline.version });
    }
    // Rebuilds the heap from the live deadlines once stale entries dominate it: O(n), rare.
    if (this.heap.size > 2 * this.deadlines.size + COMPACT_SLACK) {
      this.heap.reset([...this.deadlines].map(([id, d]) => ({ id, at: d.at, version: d.version })));
    }
  }

  async dueIssues(now: Date, limit: number): Promise<IssueKey[]> {
    const cutoff = now.getTime();
    const due: DeadlineEntry[] = [];
    // Pop the due prefix of the heap (dropping stale entries for good), then push the live
    // ones back: dueIssues only reads, the caller moves each deadline after reconciling.
    while (due.length < limit) {
      const top = this.heap.peek();
      if (top === undefined || top.at > cutoff) break;
      this.heap.pop();
      if (this.deadlines.get(top.id)?.version === top.version) due.push(top);
    }
    for (const entry of due) this.heap.push(entry);
    return due.map((entry) => this.deadlines.get(entry.id)!.key);
  }

  async countDeadlines(): Promise<number> {
    return this.deadlines.size;
  }

  async setHolder(key: IssueKey, holder: HolderRef | null): Promise<void> {
    if (holder === null) this.holders.delete(issueKeyString(key));
    else this.holders.set(issueKeyString(key), holder);
  }

  async holderOf(key: IssueKey): Promise<HolderRef | null> {
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
}

/** Earliest first; ties by key string, the order Redis gives members of equal score. */
function earlierDeadline(a: DeadlineEntry, b: DeadlineEntry): boolean {
  return a.at < b.at || (a.at === b.at && a.id < b.id);
}
