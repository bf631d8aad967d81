import type { ProbotOctokit } from 'probot';
import type { ThreadComment } from '../claims/types.js';
import type { ReadCache } from '../github/conditional.js';
import { reactedByApp } from '../github/read-reactions.js';
import type { PlusOnes } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import { mayBeCommand } from './may-be-command.js';

/**
 * The command comments the app already answered with its 👍 (docs/protocol.md §16): an
 * accepted command leaves no comment, so that reaction is the only record that it ran.
 * Who reacted is read only for comments that may be commands and whose 👍 count GitHub
 * reports above 0, or does not report (a kept answer from before it was kept): a command
 * nobody reacted to costs no call.
 */
export async function reactedCommands(
  deps: { readonly octokit: ProbotOctokit; readonly reads: ReadCache; readonly appLogin: string },
  key: IssueKey,
  thread: { readonly comments: readonly ThreadComment[]; readonly plusOnes: PlusOnes },
): Promise<ReadonlySet<number>> {
  const reacted = new Set<number>();
  for (const comment of thread.comments) {
    if (thread.plusOnes.get(comment.id) === 0 || !mayBeCommand(comment.body)) continue;
    if (await reactedByApp(deps.octokit, deps.reads, key, comment.id, deps.appLogin)) {
      reacted.add(comment.id);
    }
  }
  return reacted;
}
