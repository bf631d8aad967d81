import { assertTtl } from './assert-ttl.js';
import type { BoardSessions } from './board-sessions.js';

/** Options of {@link MemoryBoardSessions}. */
interface MemoryBoardSessionsOptions {
  /** The clock in epoch ms (tests pass their own). */
  readonly now?: () => number;
}

/**
 * {@link BoardSessions} in the process (embedded mode, one replica): a map of session id to
 * its expiry. Expired records are dropped as sessions start, oldest first, so the map holds
 * about as many records as sessions began within one lifetime.
 */
export class MemoryBoardSessions implements BoardSessions {
  private readonly expiries = new Map<string, number>();
  private readonly now: () => number;

  constructor(options: MemoryBoardSessionsOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  async start(id: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    const now = this.now();
    // Insertion order is start order; with one lifetime for all, that is expiry order too.
    for (const [old, expiresAt] of this.expiries) {
      if (expiresAt > now) break;
      this.expiries.delete(old);
    }
    this.expiries.delete(id);
    this.expiries.set(id, now + ttlMs);
  }

  async isLive(id: string): Promise<boolean> {
    return this.live(id);
  }

  async end(id: string): Promise<boolean> {
    // Checked and removed in one synchronous step: of two ends at once, one sees it live.
    const live = this.live(id);
    this.expiries.delete(id);
    return live;
  }

  private live(id: string): boolean {
    const expiresAt = this.expiries.get(id);
    if (expiresAt === undefined) return false;
    if (expiresAt > this.now()) return true;
    this.expiries.delete(id);
    return false;
  }
}
