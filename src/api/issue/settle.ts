import { trustedClaims } from '../../claims/trusted-claims.js';
import { indexIssue } from '../../read-model/index-issue.js';
import type { ApiDeps } from '../caller/api-deps.js';
import { holdingOf } from './holding.js';
import { type IssueAtHand, readIssue } from './on-issue.js';
import { reconcileUnderLock } from './reconcile-under-lock.js';

/** What GitHub shows after a write: reconciled with the app's token, then read again. */
export async function settle(deps: ApiDeps, at: IssueAtHand, reason: string) {
  await reconcileUnderLock(deps, at.key, reason, at.lease);
  const thread = await readIssue(deps, at.repo, at.key);
  const claims = trustedClaims(thread.comments, at.config.trustedBots);
  const holding = await holdingOf(deps, { ...at, thread }, claims, deps.now());
  await indexIssue(deps, at.key, thread, holding, at.config);
  return { thread, claims, holder: holding.agent, holding };
}
