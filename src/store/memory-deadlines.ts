import { type IssueKey, issueKeyString } from '../keys.js';
import type { Deadlines } from './deadlines.js';
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
 * {@link Deadlines} in the process: a min-heap with lazy deletion, so the sweep's `dueIssues`
 * costs O(k log n) for k due issues even when 100,000 issues are indexed.
 */
export class MemoryDeadlines implements Deadlines {
  private readonly deadlines = new Map<string, Deadline>();
  private readonly heap = new MinHeap<DeadlineEntry>(earlierDeadline);
  private version = 0;

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

  /** Its share of Store.forgetIssue. */
  forget(key: IssueKey): void {
    void this.setDeadline(key, null);
  }
}

/** Earliest first; ties by key string, the order Redis gives members of equal score. */
function earlierDeadline(a: DeadlineEntry, b: DeadlineEntry): boolean {
  return a.at < b.at || (a.at === b.at && a.id < b.id);
}
