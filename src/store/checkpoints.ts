import type { RepoKey } from '../keys.js';

/**
 * How far the two catch-up jobs got: the resync of each repository, and the delivery recovery
 * (docs/protocol.md §12). Two implementations pass one contract suite.
 */
export interface Checkpoints {
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
