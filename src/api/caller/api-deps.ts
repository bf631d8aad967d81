import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { DecideConfig } from '../../claims/decide-config.js';
import type { IssueFacts } from '../../claims/issue-facts.js';
import type { Plan } from '../../claims/plan.js';
import type { RepoConfigResult } from '../../config/repo-config.js';
import type { IssueKey } from '../../keys.js';
import type { ReconcileRequest, WorkQueue } from '../../queue/queue.js';
import type { ReconcileResult } from '../../reconcile/reconcile-deps.js';
import type { Store } from '../../store/store.js';
import type { IdentityLookups } from './identity-lookups.js';
import type { IssueView } from './issue-view.js';
import type { RepoAccess } from './repo-access.js';
import type { SharedReads } from './shared-reads.js';
import type { TtlCache } from './ttl-cache.js';

/** What the claims API needs from the app. */
export interface ApiDeps {
  readonly store: Store;
  readonly queue: WorkQueue;
  readonly log: Logger;
  readonly now: () => Date;
  /**
   * Milliseconds on the monotonic clock GitHub writes are paced on: what a call that waits on
   * many paced writes (release-all) counts its own time by.
   */
  readonly pacedNow: () => number;
  /** The app's own login (`slug[bot]`): its comments are not claims (docs/protocol.md §5). */
  readonly appLogin: string;
  /** GitHub's REST API root, e.g. `https://api.github.com`; the caller's calls go there. */
  readonly baseUrl: string;
  readonly access: RepoAccess;
  /** What the readers of an issue share, by issue key string (docs/protocol.md §8 "Readers"). */
  readonly reads: SharedReads<IssueView>;
  /** `GET /user` answers by token hash (docs/protocol.md §8: at most 5 minutes). */
  readonly logins: TtlCache<string>;
  /** Tokens GitHub refused (`GET /user` 401), by hash, with the message: kept a minute. */
  readonly refusedTokens: TtlCache<string>;
  /** The bounds on `GET /user` for tokens not known yet (docs/security.md "Limits"). */
  readonly lookups: IdentityLookups;
  octokitFor(installationId: number): Promise<ProbotOctokit>;
  /** The repository's claims.yml, through the app's config cache. */
  config(octokit: ProbotOctokit, where: { owner: string; repo: string }): Promise<RepoConfigResult>;
  /** One reconcile of the issue with the app's token (labels, assignees, finalising losers). */
  reconcile(request: ReconcileRequest): Promise<ReconcileResult>;
  /**
   * Whether outgoing claim events are sent (docs/protocol.md §13): an administrative release
   * then keeps its event for the reconcile that follows to tell.
   */
  readonly events: boolean;
  /**
   * Who holds an issue and who waits for it as a reconcile decides it with people's claims
   * (docs/protocol.md §16): the people facts read as a reconcile reads them (fail closed:
   * UnverifiableError), then `decideWithPeople`. Undefined when the config turns people's claims
   * off. Absent: the API reads nothing more (part two).
   */
  peopleGate?(
    octokit: ProbotOctokit,
    key: IssueKey,
    facts: IssueFacts,
    config: DecideConfig,
  ): Promise<Pick<Plan, 'holder' | 'waitlist'> | undefined>;
}
