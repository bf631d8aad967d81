import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { Action, Plan } from '../claims/plan.js';
import type { ResolvedRepoConfig } from '../config/repo-config.js';
import type { ClaimEvent } from '../events/claim-event.js';
import type { executePlan, KnownLabels, WriteAction } from '../github/execute.js';
import type { IssueKey } from '../keys.js';
import type { ReviewReadResult } from '../review/review-facts-for.js';
import type { Store } from '../store/store.js';

/** A repository's config with its rollout keys: usable, or invalid with the field named. */
type ConfigLookup =
  | { readonly ok: true; readonly config: ResolvedRepoConfig }
  | { readonly ok: false; readonly error: string };

/** What a reconcile needs from the rest of the app. */
export interface ReconcileDeps {
  octokitFor(installationId: number): Promise<ProbotOctokit>;
  /** Read once per reconcile; throws when the config could not be read (retried). */
  configFor(octokit: ProbotOctokit, key: IssueKey): Promise<ConfigLookup>;
  readonly store: Store;
  readonly log: Logger;
  readonly now: () => Date;
  readonly appLogin: string;
  readonly knownLabels: KnownLabels;
  /** Called for each write applied, e.g. to count finalisations. */
  onWrite?(action: Action, key: IssueKey): void;
  /** Called for each write that observe mode decided and did not send. */
  onObserve?(action: WriteAction, key: IssueKey): void;
  /** Asks for a reconcile of an issue whose claim overlaps paths (docs/protocol.md §10). */
  requestReconcile?(key: IssueKey): Promise<void>;
  /** Asks for a re-check of a pull request the holder's paths flagged (docs/protocol.md §11). */
  requestPullCheck?(key: IssueKey): Promise<void>;
  /** Told of each stale claim's branch read for review (docs/protocol.md §17). */
  onReviewRead?(result: ReviewReadResult): void;
  /**
   * How long a failed review read is not repeated but by the sweep: the sweep interval
   * (docs/protocol.md §17). Absent: every reconcile reads again.
   */
  readonly reviewUnreadForMs?: number;
  /** Applies the plan (default executePlan). */
  readonly executePlan?: typeof executePlan;
  /**
   * Publishes the claim events of a plan once it is applied, before the new holder is
   * recorded (docs/protocol.md §13). A throw fails the reconcile, so the queue retries it,
   * and the retry tells what this attempt wrote (`src/events/keep-claim-events.ts`). Not
   * called in observe mode: nothing was written.
   */
  publishEvents?(events: readonly ClaimEvent[]): Promise<void>;
}

/** How one reconcile ended. */
export type ReconcileResult =
  | { readonly outcome: 'applied' | 'observed'; readonly plan: Plan }
  | { readonly outcome: 'gone' | 'invalid-config' | 'disabled' | 'review-unread' };
