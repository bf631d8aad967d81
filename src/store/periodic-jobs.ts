import type { RepoKey } from '../keys.js';

/**
 * What the cluster's periodic jobs (the sweep, the resync, the delivery recovery of
 * docs/protocol.md §12) share across replicas: their leases (named locks with a TTL, one
 * holder at a time) and how far the resync and the recovery got.
 */
export interface PeriodicJobs {
  /**
   * Takes the named lock for `ttlMs` when nobody holds it. Resolves a token that only the
   * holder knows, or null when it is held. Expiry frees a lock whose holder died.
   */
  acquireLock(name: string, ttlMs: number): Promise<string | null>;
  /** Extends a lock still held with `token`; false when it expired or is held by another. */
  extendLock(name: string, token: string, ttlMs: number): Promise<boolean>;
  /** Releases a lock only when `token` still holds it; false otherwise. */
  releaseLock(name: string, token: string): Promise<boolean>;
  /** The resync checkpoint of one repository: comments updated before it were reconciled. */
  getCheckpoint(repo: RepoKey): Promise<Date | null>;
  /** Moves the resync checkpoint of one repository to `at`. */
  setCheckpoint(repo: RepoKey, at: Date): Promise<void>;
  /**
   * The newest webhook delivery the delivery recovery examined (docs/protocol.md §12), or
   * null before its first run: the next run lists GitHub's deliveries back to it.
   */
  deliveryCheckpoint(): Promise<DeliveryCheckpoint | null>;
  /** Moves the delivery recovery's checkpoint. */
  setDeliveryCheckpoint(checkpoint: DeliveryCheckpoint): Promise<void>;
}

/** The newest webhook delivery a recovery run examined: GitHub's delivery id and time. */
export interface DeliveryCheckpoint {
  /** GitHub's numeric delivery id; ids grow with time. */
  readonly id: number;
  readonly deliveredAt: Date;
}
