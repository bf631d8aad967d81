import type { IssueRef } from '../../core/issue-ref.js';

/** A claim request: the issue and the session's identity, already validated. */
export interface ClaimRequest {
  readonly ref: IssueRef;
  readonly session: string;
  readonly lane: string;
  readonly branch: string;
  /** The paths to claim, canonical (checkPathEntries): the comment's path line. */
  readonly paths?: readonly string[];
}
