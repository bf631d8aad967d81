import type { Logger } from 'pino';
import type { DecideConfig } from '../claims/decide-config.js';
import type { GraceHold } from '../claims/grace.js';
import type { ClaimComment } from '../claims/liveness.js';
import type { PersonHolder } from '../claims/plan.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import { issueRef } from '../keys.js';
import type { IndexedClaim, Store } from '../store/store.js';
import { indexedClaimOf, indexedPersonOf } from './indexed-claim-of.js';
import { indexedIssueOf } from './indexed-issue-of.js';

/**
 * Who holds an issue, of either kind (docs/protocol.md §16), and who waits for it: at most
 * one of `agent` and `person` is set.
 */
export interface Holding {
  /** The agent's claim comment that holds the issue (docs/protocol.md §3). */
  readonly agent: ClaimComment | null;
  /**
   * With no live agent holder, the stale claim in its grace (docs/protocol.md §17), which still
   * holds the issue against other sessions; absent or null: none.
   */
  readonly grace?: GraceHold | null;
  /** The person whose assignment holds it. */
  readonly person: PersonHolder | null;
  /** People waiting for the issue, first first; agents cannot take it while any wait. */
  readonly waitlist: readonly string[];
}

/**
 * Records what an API call just read back in the work queue's index (docs/protocol.md §9):
 * the issue (dropped once closed), its holder and its waitlist. The index is derived state:
 * a store error is logged, not answered, as GitHub already holds the truth the caller is told.
 */
export async function indexIssue(
  deps: { store: Store; log: Logger },
  key: IssueKey,
  thread: IssueThread & { readonly meta: IssueMeta },
  holding: Omit<Holding, 'waitlist'> & { readonly waitlist?: readonly string[] },
  config: Pick<DecideConfig, 'staleAfterMs' | 'graceMs' | 'people'>,
): Promise<void> {
  try {
    if (!thread.open) {
      await deps.store.dropOpenIssue(key);
      return;
    }
    await deps.store.putOpenIssue(indexedIssueOf(key, thread));
    // No waitlist read (a heartbeat's): the one recorded stays.
    const waitlist = holding.waitlist ?? (await deps.store.issueClaim(key))?.waitlist;
    await deps.store.setIssueClaim(key, indexedHolding(holding, config), waitlist);
  } catch (err) {
    deps.log.warn({ err, issue: issueRef(key) }, 'claims API: index not updated');
  }
}

function indexedHolding(
  holding: Pick<Holding, 'agent' | 'person' | 'grace'>,
  config: Pick<DecideConfig, 'staleAfterMs' | 'graceMs' | 'people'>,
): IndexedClaim | null {
  if (holding.person) {
    return indexedPersonOf(holding.person, config.people?.staleAfterMs ?? config.staleAfterMs);
  }
  // docs/protocol.md §17: a claim in grace still holds the issue in the index.
  const agent = holding.agent ?? holding.grace?.claim ?? null;
  return agent && indexedClaimOf(agent, config.staleAfterMs, config.graceMs);
}
