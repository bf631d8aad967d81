import type { ClaimState } from '../../claims/claim-state.js';
import { issueHolder } from '../../claims/issue-holder.js';
import { trustedClaims } from '../../claims/trusted-claims.js';
import type { ResolvedRepoConfig } from '../../config/repo-config.js';
import { IssueGoneError, UnverifiableError } from '../../github/errors.js';
import { type IssueThread, readThread } from '../../github/thread.js';
import type { IssueKey } from '../../keys.js';
import { ClientError, unverifiable } from '../core/client-error.js';
import { formatIssueRef, type IssueRef } from '../core/issue-ref.js';
import { describeFailure } from './describe-failure.js';
import type { Desk } from './desk.js';

/** An issue as one read saw it: the thread, the repository's config and who holds it. */
export interface IssueState extends ClaimState {
  readonly ref: IssueRef;
  readonly thread: IssueThread;
  readonly config: ResolvedRepoConfig;
}

/** The issue key the app's GitHub adapters take; the client has no installation. */
export function issueKey(ref: IssueRef): IssueKey {
  return { installationId: 0, owner: ref.owner, repo: ref.repo, number: ref.number };
}

/**
 * Reads an issue, its whole thread and its repository's config, and works out the holder
 * with the app's own rules (trustedClaims, findHolder), so the client and the app cannot
 * disagree about who holds an issue. Fails closed (docs/protocol.md §6): a
 * thread that cannot be read whole, a missing issue, and a pull request are unverifiable,
 * never "free".
 */
export async function readIssueState(desk: Desk, ref: IssueRef): Promise<IssueState> {
  const name = formatIssueRef(ref);
  let thread: IssueThread;
  let config: ResolvedRepoConfig;
  try {
    [thread, config] = await Promise.all([
      readThread(desk.octokit, issueKey(ref)),
      desk.repoConfig(ref.owner, ref.repo),
    ]);
  } catch (error) {
    if (error instanceof ClientError) throw error;
    if (error instanceof IssueGoneError) {
      throw unverifiable(
        `${name} was not found: it does not exist, was deleted or transferred, or this token cannot see it`,
        { issue: name },
        error,
      );
    }
    if (error instanceof UnverifiableError) {
      const detail = error.cause === undefined ? '' : `: ${describeFailure(error.cause)}`;
      throw unverifiable(`${name}: ${error.message}${detail}`, { issue: name }, error);
    }
    throw error;
  }
  // docs/protocol.md §2: claims live on issues only; Praetor counts a pull request number as a
  // failure to verify, never as a free issue.
  if (thread.isPullRequest) {
    throw unverifiable(`${name} is a pull request; claims live on issues only`, {
      issue: name,
      pullRequest: true,
    });
  }
  const now = desk.now();
  const claims = trustedClaims(thread.comments, config.trustedBots);
  const holder = issueHolder(claims, thread, config, now);
  return { ref, thread, config, claims, holder, now };
}
