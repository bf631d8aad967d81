import { type DecideConfig, decide, type PathHolderFact, trustedClaims } from '../claims/decide.js';
import { isStale } from '../claims/liveness.js';
import { overlaps, pathLineOf } from '../claims/paths.js';
import { IssueGoneError, type IssueThread } from '../github/thread.js';
import type { IndexedPathHolder, IssueKey, Store } from '../store/store.js';

/** What checking paths across a repository needs from the reconcile. */
export interface PathCheckDeps {
  readonly store: Store;
  /**
   * Reads another issue of the same repository whole. Throws when it cannot (fail closed,
   * docs/protocol.md §6): the reconcile is then retried, and nothing is finalised.
   */
  readThread(key: IssueKey): Promise<IssueThread>;
  readonly appLogin: string;
}

/** The verified path holders to weigh, and which index entries were looked at. */
export interface PathCheck {
  /** Holders of other issues, verified from their threads, that decide() weighs. */
  readonly holders: readonly PathHolderFact[];
  /** Issue number → comment id of each index entry verified (kept or not). */
  readonly checked: ReadonlyMap<number, number>;
}

/** A verified holder of another issue: the claim its thread shows holding, with its paths. */
interface Keeper {
  readonly commentId: number;
  readonly session: string;
  readonly paths: readonly string[];
}

const NOTHING: PathCheck = { holders: [], checked: new Map() };

/**
 * The holders of other issues of the repository that this issue's claims must give way to
 * (docs/protocol.md §10), for decide(). An issue whose live claims name no paths, or whose
 * paths overlap nobody in the index, costs no GitHub call. Every index entry that would take
 * paths from a claim here is verified first by re-reading that issue's thread: the index is
 * only what the last reconcile saw, and a claim is never finalised on partial facts.
 *
 * Keeping is settled in comment-id order: an older holder keeps its paths only if no still
 * older keeper overlaps it, so a claim that lost its paths takes none from a younger one.
 * The recursion always goes to a lower comment id, so it ends.
 */
export async function pathHoldersFor(
  deps: PathCheckDeps,
  key: IssueKey,
  thread: IssueThread,
  config: DecideConfig,
  now: Date,
): Promise<PathCheck> {
  if (!thread.open || thread.isPullRequest) return NOTHING;
  const wanted = livePaths(thread, config, now);
  if (wanted.length === 0) return NOTHING;

  const index = (await deps.store.pathHolders(key.installationId, key.owner, key.repo)).filter(
    (entry) => entry.number !== key.number,
  );
  const memo = new Map<number, Promise<Keeper | null>>();
  const checked = new Map<number, number>();

  const keeper = (entry: IndexedPathHolder): Promise<Keeper | null> => {
    let found = memo.get(entry.number);
    if (found === undefined) {
      checked.set(entry.number, entry.commentId);
      found = verify(entry);
      memo.set(entry.number, found);
    }
    return found;
  };

  const verify = async (entry: IndexedPathHolder): Promise<Keeper | null> => {
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
    const holder = decide({ ...other, appLogin: deps.appLogin, hints: [] }, config, now).holder;
    if (holder === null || holder.commentId !== entry.commentId || holder.paths.length === 0) {
      return null;
    }
    for (const older of index) {
      if (older.number === entry.number || older.commentId >= holder.commentId) continue;
      if (overlaps(older.paths, holder.paths).length === 0) continue;
      const kept = await keeper(older);
      if (kept !== null && overlaps(kept.paths, holder.paths).length > 0) return null;
    }
    return { commentId: holder.commentId, session: holder.session, paths: holder.paths };
  };

  const holders: PathHolderFact[] = [];
  for (const entry of index) {
    const threatened = wanted.some(
      (claim) => claim.commentId > entry.commentId && overlaps(entry.paths, claim.paths).length > 0,
    );
    if (!threatened) continue;
    const kept = await keeper(entry);
    if (kept === null) continue;
    holders.push({ issue: `${key.owner}/${key.repo}#${entry.number}`, ...kept });
  }
  return { holders, checked };
}

/** The valid path lines of the issue's trusted claims that may still hold. */
function livePaths(
  thread: IssueThread,
  config: DecideConfig,
  now: Date,
): Array<{ commentId: number; paths: readonly string[] }> {
  const out: Array<{ commentId: number; paths: readonly string[] }> = [];
  for (const claim of trustedClaims(thread.comments, config.trustedBots)) {
    if (claim.marker.stage === 'released' || isStale(claim, config.staleAfterMs, now)) continue;
    const line = pathLineOf(claim.comment.body);
    if (line.kind === 'valid') out.push({ commentId: claim.comment.id, paths: line.paths });
  }
  return out;
}
