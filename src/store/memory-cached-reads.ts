import { assertTtl } from './assert-ttl.js';
import type { CachedRead, CachedReads } from './cached-reads.js';

/**
 * The most answers kept for conditional requests; past it the least recently written goes.
 * Losing one costs a full read, never correctness.
 */
const MAX_CACHED_READS = 10_000;

/** {@link CachedReads} in the process: a map in order of writing, bounded. */
export class MemoryCachedReads implements CachedReads {
  /** `scope\nurl` -> the answer kept for conditional requests, in order of writing. */
  private readonly reads = new Map<string, { read: CachedRead; expiresAt: number }>();

  constructor(private readonly now: () => number) {}

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
}
