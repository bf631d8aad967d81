import { randomUUID } from 'node:crypto';
import { formatClaimTime } from '../claims/marker.js';
import type { QueueSettings } from '../config/repo-config.js';
import type { PendingEvent } from '../events/pending-events.js';
import { type IssueKey, issueKeyString, type RepoKey, repoKeyString, repoPrefix } from '../keys.js';
import { assertTtl } from './assert-ttl.js';
import { CLAIM_CHANGES_CAP, type ClaimChange } from './board-records.js';
import type {
  BranchHolder,
  CachedRead,
  DeliveryCheckpoint,
  IndexedBranchHolder,
  IndexedClaim,
  IndexedEntry,
  IndexedIssue,
  IndexedPathHolder,
  PathHolder,
  Store,
} from './store.js';
import { PENDING_EVENTS_TTL_MS, QUEUE_SETTINGS_TTL_MS, type RepoName } from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** The clock, in epoch milliseconds; tests pass their own to control expiry. */
  readonly now?: () => number;
  /**
   * The most delivery ids kept at once. Past it the soonest-expiring id is forgotten early:
   * a forgotten id only lets a redelivery reconcile again, which is harmless (reconciles are
   * idempotent), while an unbounded map is not.
   */
  readonly maxDeliveryIds?: number;
}

/** A binary min-heap ordered by `less`; O(log n) push and pop. */
class MinHeap<T> {
  private items: T[] = [];

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    this.items.push(item);
    this.siftUp(this.items.length - 1);
  }

  pop(): T | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (this.items.length > 0 && last !== undefined) {
      this.items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Replaces the content in O(n) (used to drop stale entries in bulk). */
  reset(items: T[]): void {
    this.items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftUp(start: number): void {
    const items = this.items;
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  private siftDown(start: number): void {
    const items = this.items;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && this.less(items[left]!, items[smallest]!)) smallest = left;
      if (right < items.length && this.less(items[right]!, items[smallest]!)) smallest = right;
      if (smallest === i) return;
      [items[i], items[smallest]] = [items[smallest]!, items[i]!];
      i = smallest;
    }
  }
}

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

interface DeliveryEntry {
  readonly id: string;
  readonly expiresAt: number;
}

interface Lock {
  readonly token: string;
  readonly expiresAt: number;
}

/** Stale heap entries are dropped in bulk once they outnumber live ones by this much. */
const COMPACT_SLACK = 1024;

/**
 * The most answers kept for conditional requests; past it the least recently written goes.
 * Losing one costs a full read, never correctness.
 */
const MAX_CACHED_READS = 10_000;

/**
 * The embedded {@link Store}: everything in this process, for a single replica (docs/protocol.md §7,
 * `CLAIMS_REDIS_URL` unset). The deadline index is a min-heap with lazy deletion, so the sweep's
 * `dueIssues` costs O(k log n) for k due issues even when 100,000 issues are indexed.
 */
export class MemoryStore implements Store {
  private readonly now: () => number;
  private readonly maxDeliveryIds: number;

  private readonly deliveries = new Map<string, number>();
  private readonly deliveryExpiry = new MinHeap<DeliveryEntry>((a, b) => a.expiresAt < b.expiresAt);

  private readonly deadlines = new Map<string, Deadline>();
  private readonly holders = new Map<string, number>();
  private readonly queueSettingsByRepo = new Map<
    string,
    { settings: QueueSettings | null; expiresAt: number }
  >();
  private readonly pending = new Map<
    string,
    { pending: readonly PendingEvent[]; expiresAt: number }
  >();
  private readonly deadlineHeap = new MinHeap<DeadlineEntry>(earlierDeadline);
  private version = 0;

  /** Issue key -> when its first 404/410 stops counting (epoch ms). */
  private readonly gone = new Map<string, number>();
  private readonly appAssigned = new Map<string, readonly string[]>();

  private readonly checkpoints = new Map<string, number>();
  private readonly locks = new Map<string, Lock>();
  /** Per repository (repoKey), the path holders by issue number. */
  private readonly pathIndex = new Map<string, Map<number, PathHolder>>();
  private redeliverCheckpoint: DeliveryCheckpoint | null = null;
  /** `scope\nurl` -> the answer kept for conditional requests, in order of writing. */
  private readonly reads = new Map<string, { read: CachedRead; expiresAt: number }>();
  private readonly openIssueIndex = new Map<string, IndexedIssue>();
  private readonly issueClaims = new Map<string, IndexedClaim>();

  /** Oldest first; ids in `changeIds`. */
  private changes: ClaimChange[] = [];
  private readonly changeIds = new Set<string>();
  /** Per repository (repoKey), the holders by issue number, for their branches. */
  private readonly branchIndex = new Map<string, Map<number, BranchHolder>>();
  /** Issue key -> pull request number -> the holder (comment and paths) that flagged it. */
  private readonly flagged = new Map<string, Map<number, string>>();

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxDeliveryIds = options.maxDeliveryIds ?? 1_000_000;
  }

  async markDelivery(deliveryId: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const now = this.now();
    this.pruneDeliveries(now);
    const expiresAt = this.deliveries.get(deliveryId);
    if (expiresAt !== undefined && expiresAt > now) return false;
    this.deliveries.set(deliveryId, now + ttlMs);
    this.deliveryExpiry.push({ id: deliveryId, expiresAt: now + ttlMs });
    while (this.deliveries.size > this.maxDeliveryIds) this.forgetSoonestDelivery();
    return true;
  }

  async confirmDelivery(deliveryId: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    if (!this.deliveries.has(deliveryId)) return;
    const expiresAt = this.now() + ttlMs;
    this.deliveries.set(deliveryId, expiresAt);
    this.deliveryExpiry.push({ id: deliveryId, expiresAt });
  }

  async forgetDelivery(deliveryId: string): Promise<void> {
    // Its heap entry no longer matches and is dropped when it surfaces.
    this.deliveries.delete(deliveryId);
  }

  async setDeadline(key: IssueKey, at: Date | null): Promise<void> {
    const id = issueKeyString(key);
    if (at === null) {
      // Lazy deletion: the heap entry stays until it surfaces or a compaction drops it.
      this.deadlines.delete(id);
    } else {
      const deadline = { key, at: at.getTime(), version: ++this.version };
      this.deadlines.set(id, deadline);
      this.deadlineHeap.push({ id, at: deadline.at, version: deadline.version });
    }
    this.compactDeadlines();
  }

  async dueIssues(now: Date, limit: number): Promise<IssueKey[]> {
    const cutoff = now.getTime();
    const due: DeadlineEntry[] = [];
    // Pop the due prefix of the heap (dropping stale entries for good), then push the live
    // ones back: dueIssues only reads, the caller moves each deadline after reconciling.
    while (due.length < limit) {
      const top = this.deadlineHeap.peek();
      if (top === undefined || top.at > cutoff) break;
      this.deadlineHeap.pop();
      if (this.isLive(top)) due.push(top);
    }
    for (const entry of due) this.deadlineHeap.push(entry);
    return due.map((entry) => this.deadlines.get(entry.id)!.key);
  }

  async countDeadlines(): Promise<number> {
    return this.deadlines.size;
  }

  async setHolder(key: IssueKey, commentId: number | null): Promise<void> {
    if (commentId === null) this.holders.delete(issueKeyString(key));
    else this.holders.set(issueKeyString(key), commentId);
  }

  async holderOf(key: IssueKey): Promise<number | null> {
    return this.holders.get(issueKeyString(key)) ?? null;
  }

  async setQueueSettings(repo: RepoName, settings: QueueSettings | null): Promise<void> {
    const name = `${repo.owner}/${repo.repo}`.toLowerCase();
    this.queueSettingsByRepo.set(name, { settings, expiresAt: this.now() + QUEUE_SETTINGS_TTL_MS });
  }

  async queueSettings(repo: RepoName): Promise<QueueSettings | null | undefined> {
    const kept = this.queueSettingsByRepo.get(`${repo.owner}/${repo.repo}`.toLowerCase());
    return kept && kept.expiresAt > this.now() ? kept.settings : undefined;
  }

  async setPendingEvents(key: IssueKey, pending: readonly PendingEvent[]): Promise<void> {
    const id = issueKeyString(key);
    if (pending.length === 0) this.pending.delete(id);
    else this.pending.set(id, { pending, expiresAt: this.now() + PENDING_EVENTS_TTL_MS });
  }

  async pendingEvents(key: IssueKey): Promise<PendingEvent[]> {
    const kept = this.pending.get(issueKeyString(key));
    return kept && kept.expiresAt > this.now() ? [...kept.pending] : [];
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

  async forgetIssue(key: IssueKey): Promise<void> {
    await this.setDeadline(key, null);
    const id = issueKeyString(key);
    this.holders.delete(id);
    this.pending.delete(id);
    this.gone.delete(id);
    this.appAssigned.delete(id);
    await this.setPathHolder(key, null);
    await this.setBranchHolder(key, null);
    this.flagged.delete(id);
    await this.dropOpenIssue(key);
  }

  async getCheckpoint(repo: RepoKey): Promise<Date | null> {
    const at = this.checkpoints.get(repoKeyString(repo));
    return at === undefined ? null : new Date(at);
  }

  async setCheckpoint(repo: RepoKey, at: Date): Promise<void> {
    this.checkpoints.set(repoKeyString(repo), at.getTime());
  }

  async acquireLock(name: string, ttlMs: number): Promise<string | null> {
    assertTtl(ttlMs);
    if (this.heldLock(name) !== undefined) return null;
    const token = randomUUID();
    this.locks.set(name, { token, expiresAt: this.now() + ttlMs });
    return token;
  }

  async extendLock(name: string, token: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    if (this.heldLock(name)?.token !== token) return false;
    this.locks.set(name, { token, expiresAt: this.now() + ttlMs });
    return true;
  }

  async releaseLock(name: string, token: string): Promise<boolean> {
    if (this.heldLock(name)?.token !== token) return false;
    this.locks.delete(name);
    return true;
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async recordClaimChange(change: ClaimChange): Promise<void> {
    if (this.changeIds.has(change.id)) return;
    this.changeIds.add(change.id);
    // Kept in time order, as the Redis sorted set is; changes arrive almost in order.
    let at = this.changes.length;
    while (at > 0 && Date.parse(this.changes[at - 1]!.at) > Date.parse(change.at)) at--;
    this.changes.splice(at, 0, change);
    while (this.changes.length > CLAIM_CHANGES_CAP) {
      this.changeIds.delete(this.changes.shift()!.id);
    }
  }

  async claimChanges(since: Date): Promise<ClaimChange[]> {
    const from = since.getTime();
    return this.changes.filter((c) => Date.parse(c.at) >= from).reverse();
  }

  async close(): Promise<void> {
    this.changes = [];
    this.changeIds.clear();
    this.deliveries.clear();
    this.deliveryExpiry.reset([]);
    this.deadlines.clear();
    this.holders.clear();
    this.gone.clear();
    this.appAssigned.clear();
    this.deadlineHeap.reset([]);
    this.checkpoints.clear();
    this.locks.clear();
    this.pathIndex.clear();
    this.openIssueIndex.clear();
    this.issueClaims.clear();
  }

  async putOpenIssue(issue: IndexedIssue): Promise<void> {
    const id = issueKeyString(issue.key);
    const indexed = this.openIssueIndex.get(id);
    if (indexed !== undefined && indexed.updatedAt > issue.updatedAt) return;
    this.openIssueIndex.set(id, issue);
  }

  async dropOpenIssue(key: IssueKey): Promise<void> {
    const id = issueKeyString(key);
    this.openIssueIndex.delete(id);
    this.issueClaims.delete(id);
  }

  async replaceOpenIssues(
    repo: RepoKey,
    issues: readonly IndexedIssue[],
    listedAt: Date,
  ): Promise<void> {
    const listed = new Set(issues.map((issue) => issueKeyString(issue.key)));
    const prefix = repoPrefix(repo);
    const cutoff = formatClaimTime(listedAt);
    for (const [id, issue] of this.openIssueIndex) {
      if (!id.startsWith(prefix) || listed.has(id) || issue.updatedAt >= cutoff) continue;
      this.openIssueIndex.delete(id);
      this.issueClaims.delete(id);
    }
    for (const issue of issues) await this.putOpenIssue(issue);
  }

  async setIssueClaim(key: IssueKey, claim: IndexedClaim | null): Promise<void> {
    if (claim === null) this.issueClaims.delete(issueKeyString(key));
    else this.issueClaims.set(issueKeyString(key), claim);
  }

  async issueClaim(key: IssueKey): Promise<IndexedClaim | null> {
    return this.issueClaims.get(issueKeyString(key)) ?? null;
  }

  async renewIssueClaim(key: IssueKey, claim: IndexedClaim): Promise<boolean> {
    const id = issueKeyString(key);
    const indexed = this.issueClaims.get(id);
    if (indexed?.commentId !== claim.commentId) return false;
    if (indexed.commentUpdatedAt >= claim.commentUpdatedAt) return false;
    this.issueClaims.set(id, claim);
    return true;
  }

  async openIssues(): Promise<IndexedEntry[]> {
    const entries: IndexedEntry[] = [];
    for (const [id, issue] of this.openIssueIndex) {
      entries.push({ issue, claim: this.issueClaims.get(id) ?? null });
    }
    return entries;
  }

  /** The lock named `name` if it is held now; an expired one is forgotten on the way. */
  private heldLock(name: string): Lock | undefined {
    const lock = this.locks.get(name);
    if (lock === undefined) return undefined;
    if (lock.expiresAt > this.now()) return lock;
    this.locks.delete(name);
    return undefined;
  }

  private isLive(entry: DeadlineEntry): boolean {
    return this.deadlines.get(entry.id)?.version === entry.version;
  }

  /** Rebuilds the heap from the live deadlines once stale entries dominate it: O(n), rare. */
  private compactDeadlines(): void {
    if (this.deadlineHeap.size <= 2 * this.deadlines.size + COMPACT_SLACK) return;
    const live = [...this.deadlines].map(([id, d]) => ({ id, at: d.at, version: d.version }));
    this.deadlineHeap.reset(live);
  }

  private pruneDeliveries(now: number): void {
    while ((this.deliveryExpiry.peek()?.expiresAt ?? Number.POSITIVE_INFINITY) <= now) {
      this.forgetSoonestDelivery();
    }
  }

  private forgetSoonestDelivery(): void {
    const entry = this.deliveryExpiry.pop();
    // The id may have been marked again since this entry was pushed; only the entry that
    // matches the current expiry removes it.
    if (entry !== undefined && this.deliveries.get(entry.id) === entry.expiresAt) {
      this.deliveries.delete(entry.id);
    }
  }

  async setPathHolder(key: IssueKey, holder: PathHolder | null): Promise<void> {
    const repo = repoKeyString(key);
    const holders = this.pathIndex.get(repo) ?? new Map<number, PathHolder>();
    if (holder === null || holder.paths.length === 0) holders.delete(key.number);
    else {
      const heartbeat = new Date(holder.heartbeat.getTime());
      holders.set(key.number, { ...holder, heartbeat, paths: [...holder.paths] });
    }
    if (holders.size === 0) this.pathIndex.delete(repo);
    else this.pathIndex.set(repo, holders);
  }

  async pathHolders(
    installationId: number,
    owner: string,
    repo: string,
  ): Promise<IndexedPathHolder[]> {
    const holders = this.pathIndex.get(repoKeyString({ installationId, owner, repo }));
    if (holders === undefined) return [];
    return [...holders]
      .map(([number, holder]) => ({ number, ...holder, heartbeat: new Date(holder.heartbeat) }))
      .sort((a, b) => a.number - b.number);
  }

  async deliveryCheckpoint(): Promise<DeliveryCheckpoint | null> {
    const checkpoint = this.redeliverCheckpoint;
    return checkpoint === null
      ? null
      : { ...checkpoint, deliveredAt: new Date(checkpoint.deliveredAt) };
  }

  async setDeliveryCheckpoint(checkpoint: DeliveryCheckpoint): Promise<void> {
    this.redeliverCheckpoint = { ...checkpoint, deliveredAt: new Date(checkpoint.deliveredAt) };
  }

  async cachedRead(scope: string, url: string): Promise<CachedRead | null> {
    const id = `${scope}\n${url}`;
    const entry = this.reads.get(id);
    if (entry === undefined) return null;
    if (entry.expiresAt <= this.now()) {
      this.reads.delete(id);
      return null;
    }
    return entry.read;
  }

  async setCachedRead(scope: string, url: string, read: CachedRead, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    const id = `${scope}\n${url}`;
    // Re-inserted, so the map's order is that of the last write: the oldest goes first.
    this.reads.delete(id);
    this.reads.set(id, { read: { ...read }, expiresAt: this.now() + ttlMs });
    while (this.reads.size > MAX_CACHED_READS) {
      const oldest = this.reads.keys().next().value;
      if (oldest === undefined) break;
      this.reads.delete(oldest);
    }
  }

  async setBranchHolder(key: IssueKey, holder: BranchHolder | null): Promise<void> {
    const repo = repoKeyString(key);
    const holders = this.branchIndex.get(repo) ?? new Map<number, BranchHolder>();
    if (holder === null) holders.delete(key.number);
    else holders.set(key.number, { ...holder, heartbeat: new Date(holder.heartbeat) });
    if (holders.size === 0) this.branchIndex.delete(repo);
    else this.branchIndex.set(repo, holders);
  }

  async branchHolders(repo: RepoKey, branch: string): Promise<IndexedBranchHolder[]> {
    const holders = this.branchIndex.get(repoKeyString(repo));
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

/** Earliest first; ties by key string, the order Redis gives members of equal score. */
function earlierDeadline(a: DeadlineEntry, b: DeadlineEntry): boolean {
  return a.at < b.at || (a.at === b.at && a.id < b.id);
}
