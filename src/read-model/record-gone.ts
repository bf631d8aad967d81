import { type GuardIndexDeps, indexForGuard } from '../guard/index-for-guard.js';
import type { IssueKey } from '../keys.js';

/**
 * Records an issue confirmed gone (docs/protocol.md §6): its claims hold nothing now, so the
 * pull requests they flagged are checked again, and it leaves every index.
 */
export async function recordGone(deps: GuardIndexDeps, key: IssueKey): Promise<void> {
  await indexForGuard(deps, key, { actions: [], holder: null, deadline: null, waitlist: [] });
  await deps.store.forgetIssue(key);
}
