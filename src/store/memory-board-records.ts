import { type BoardRecords, CLAIM_CHANGES_CAP, type ClaimChange } from './board-records.js';

/** {@link BoardRecords} in the process: the changes in time order, and their ids. */
export class MemoryBoardRecords implements BoardRecords {
  /** Oldest first; ids in `changeIds`. */
  private changes: ClaimChange[] = [];
  private readonly changeIds = new Set<string>();

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
}
