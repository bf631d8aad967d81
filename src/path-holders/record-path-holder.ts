import type { Logger } from 'pino';
import { agentHolder } from '../claims/holder-summary.js';
import { overlaps } from '../claims/paths.js';
import type { Plan } from '../claims/plan.js';
import type { IssueKey } from '../keys.js';
import type { Store } from '../store/store.js';
import type { PathCheck } from './path-holders-for.js';

/** What recording a holder's paths needs from the reconcile. */
export interface RecordPathDeps {
  readonly store: Store;
  readonly log: Logger;
  /** Asks for one more reconcile of an issue (the queue coalesces repeated asks). */
  requestReconcile?(key: IssueKey): Promise<void>;
}

/**
 * Keeps the path-holder index true to the holder a reconcile settled on (docs/protocol.md
 * §10), then looks at the index again: write first, read after, so that of two reconciles
 * racing with overlapping paths on two issues at least one sees the other.
 * - a younger holder elsewhere overlapping this one must lose: its issue is reconciled, and
 *   that reconcile verifies this thread before finalising anything;
 * - an older one that this reconcile did not verify (it came in meanwhile) may take these
 *   paths: this issue is reconciled once more.
 */
export async function recordPathHolder(
  deps: RecordPathDeps,
  key: IssueKey,
  plan: Plan,
  check: PathCheck,
): Promise<void> {
  const holder = agentHolder(plan.holder);
  if (holder?.pathProblem !== undefined) {
    deps.log.warn(
      { commentId: holder.commentId, problem: holder.pathProblem },
      'path line invalid: the claim holds its issue but no paths',
    );
  }
  if (holder === null || holder.paths.length === 0) {
    await deps.store.setPathHolder(key, null);
    return;
  }
  await deps.store.setPathHolder(key, {
    commentId: holder.commentId,
    session: holder.session,
    author: holder.author,
    branch: holder.branch,
    heartbeat: holder.heartbeat,
    paths: holder.paths,
  });
  if (deps.requestReconcile === undefined) return;
  const index = await deps.store.pathHolders(key.installationId, key.owner, key.repo);
  const again: IssueKey[] = [];
  for (const entry of index) {
    if (entry.number === key.number) continue;
    if (overlaps(holder.paths, entry.paths).length === 0) continue;
    const younger = entry.commentId > holder.commentId;
    if (younger || check.checked.get(entry.number) !== entry.commentId) {
      again.push(younger ? { ...key, number: entry.number } : key);
    }
  }
  const unique = new Map(again.map((k) => [k.number, k]));
  for (const k of unique.values()) {
    deps.log.info(
      { other: k.number, paths: holder.paths },
      'paths overlap: issue reconciled again',
    );
    await deps.requestReconcile(k);
  }
}
