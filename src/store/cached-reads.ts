/**
 * GitHub's answers kept for conditional requests (`If-None-Match`, docs/protocol.md §12), so
 * an unchanged read costs no rate limit.
 */
export interface CachedReads {
  /**
   * What GitHub last answered for `url` read with the token scope `scope` (an installation,
   * or the app's JWT), with the ETag it gave, or null. Kept per scope, so a read made with
   * one installation's token never sends another's ETag (nor reuses its answer).
   */
  cachedRead(scope: string, url: string): Promise<CachedRead | null>;
  /** Keeps an answer and its ETag for `ttlMs`, replacing the one before. */
  setCachedRead(scope: string, url: string, read: CachedRead, ttlMs: number): Promise<void>;
}

/** A GitHub answer kept for a conditional request (`If-None-Match`). */
export interface CachedRead {
  readonly etag: string;
  /** What the reader kept of the answer, as JSON text. */
  readonly value: string;
}
