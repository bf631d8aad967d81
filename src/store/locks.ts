/**
 * Named locks with a TTL (the sweep's, the resync's and the recovery's leases): one holder at
 * a time across replicas. Two implementations pass one contract suite.
 */
export interface Locks {
  /**
   * Takes the named lock for `ttlMs` when nobody holds it. Resolves a token that only the
   * holder knows, or null when it is held. Expiry frees a lock whose holder died.
   */
  acquireLock(name: string, ttlMs: number): Promise<string | null>;
  /** Extends a lock still held with `token`; false when it expired or is held by another. */
  extendLock(name: string, token: string, ttlMs: number): Promise<boolean>;
  /** Releases a lock only when `token` still holds it; false otherwise. */
  releaseLock(name: string, token: string): Promise<boolean>;
}
