import { decide } from '../claims/decide.js';
import type { DecideConfig } from '../claims/decide-config.js';
import { agentHolder } from '../claims/holder-summary.js';
import { overlaps } from '../claims/paths.js';
import type { AgentHolder } from '../claims/plan.js';
import { IssueGoneError } from '../github/errors.js';
import type { IssueThread } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import type { IndexedPathHolder, Store } from '../store/store.js';

/** What checking paths across a repository needs from the reconcile or the API. */
export interface PathCheckDeps {
  readonly store: Store;
  /**
   * Reads another issue of the same repository whole. Throws when it cannot (fail closed,
   * docs/protocol.md §6): the caller then retries or answers "unverifiable".
   */
  readThread(key: IssueKey): Promise<IssueThread>;
  readonly appLogin: string;
}

/** Paths a claim asks for, with its comment id (Infinity for a claim not yet posted). */
export interface WantedPaths {
  readonly commentId: number;
  readonly paths: readonly string[];
}

/** A holder of another issue that keeps its paths, as its own thread shows it. */
interface Keeper {
  readonly number: number;
  readonly holder: AgentHolder;
}

/** The keepers found, and which index entries were verified on the way. */
interface Keepers {
  readonly keepers: readonly Keeper[];
  /** Issue number → comment id of each index entry verified (kept or not). */
  readonly checked: ReadonlyMap<number, number>;
}

/**
 * The holders of other issues of the repository that keep paths overlapping `wanted` with a
 * lower comment id (docs/protocol.md §10). Paths that overlap nobody in the index cost no
 * GitHub call. Every index entry that would take paths is verified first by re-reading its
 * issue's thread: the index is only what the last reconcile saw, and nothing is decided on
 * partial facts (a read that fails throws).
 *
 * Keeping is settled in comment-id order: an older holder keeps its paths only if no still
 * older keeper overlaps it, so a claim that lost its paths takes none from a younger one.
 * The recursion always goes to a lower comment id, so it ends.
 */
export async function verifiedKeepers(
  deps: PathCheckDeps,
  key: IssueKey,
  wanted: readonly WantedPaths[],
  config: DecideConfig,
  now: Date,
): Promise<Keepers> {
  if (wanted.length === 0) return { keepers: [], checked: new Map() };
  const index = (await deps.store.pathHolders(key.installationId, key.owner, key.repo)).filter(
    (entry) => entry.number !== key.number,
  );
  const memo = new Map<number, Promise<AgentHolder | null>>();
  const checked = new Map<number, number>();

  const keeper = (entry: IndexedPathHolder): Promise<AgentHolder | null> => {
    let found = memo.get(entry.number);
    if (found === undefined) {
      checked.set(entry.number, entry.commentId);
      found = verify(entry);
      memo.set(entry.number, found);
    }
    return found;
  };

  const verify = async (entry: IndexedPathHolder): Promise<AgentHolder | null> => {
    const where = { ...key, number: entry.number };
    let other: IssueThread;
    try {
      other = await deps.readThread(where);
    } catch (error) {
      if (!(error instanceof IssueGoneError)) throw error;
      await deps.store.setPathHolder(where, null);
      return null;
    }
    // Its own thread alone says who holds that issue; its own path losses are weighed below.
    const holder = agentHolder(
      decide({ ...other, appLogin: deps.appLogin, hints: [] }, config, now).holder,
    );
    if (holder === null || holder.commentId !== entry.commentId || holder.paths.length === 0) {
      return null;
    }
    for (const older of index) {
      if (older.number === entry.number || older.commentId >= holder.commentId) continue;
      if (overlaps(older.paths, holder.paths).length === 0) continue;
      const kept = await keeper(older);
      if (kept !== null && overlaps(kept.paths, holder.paths).length > 0) return null;
    }
    return holder;
  };

  const keepers: Keeper[] = [];
  for (const entry of index) {
    const threatened = wanted.some(
      (claim) => claim.commentId > entry.commentId && overlaps(entry.paths, claim.paths).length > 0,
    );
    if (!threatened) continue;
    const holder = await keeper(entry);
    if (holder !== null) keepers.push({ number: entry.number, holder });
  }
  return { keepers, checked };
}
