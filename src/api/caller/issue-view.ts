import type { ResolvedRepoConfig } from '../../config/repo-config.js';
import type { Lease } from '../../fence/lease.js';
import type { IssueMeta, IssueThread } from '../../github/thread.js';
import type { IssueKey } from '../../keys.js';
import type { Holding } from '../../read-model/index-issue.js';
import type { InstalledRepo } from './repo-access.js';

/** An issue the API works on: its key, repository, config and whole thread as read. */
export interface IssueAtHand {
  readonly key: IssueKey;
  readonly repo: InstalledRepo;
  readonly config: ResolvedRepoConfig;
  readonly thread: IssueThread & { readonly meta: IssueMeta };
  /** Inside the issue's lock on Redis, its lease: the call's writes check it (src/fence/lease.ts). */
  readonly lease?: Lease | undefined;
}

/**
 * What one read of an issue found for `GET …/claim`: shared by every reader of the issue for
 * a pacing interval (docs/protocol.md §8 "Readers").
 */
export interface IssueView {
  readonly at: IssueAtHand;
  readonly holding: Holding;
}
