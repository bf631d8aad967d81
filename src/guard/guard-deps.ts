import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { RepoConfigResult } from '../config/repo-config.js';
import type { KnownLabels, WriteAction } from '../github/execute.js';
import type { IssueKey, RepoKey } from '../keys.js';
import type { Store } from '../store/store.js';

/** What the pull-request guard and branch heartbeats need from the app (docs/protocol.md §11). */
export interface GuardDeps {
  octokitFor(installationId: number): Promise<ProbotOctokit>;
  /** The repository's config as the app's cache has it. */
  configOf(octokit: ProbotOctokit, repo: RepoKey): Promise<RepoConfigResult>;
  readonly store: Store;
  readonly log: Logger;
  readonly now: () => Date;
  readonly appLogin: string;
  readonly knownLabels: KnownLabels;
  /**
   * Called by the executor for each write that `mode: observe` decided and did not send
   * (docs/protocol.md §11): a `check-run`, or the `edit-claim` of a branch heartbeat.
   */
  onObserve?(action: WriteAction, key: IssueKey): void;
}
