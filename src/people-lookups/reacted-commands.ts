import type { ProbotOctokit } from 'probot';
import type { ReadCache } from '../github/conditional.js';
import { reactedByApp } from '../github/read-reactions.js';
import type { PlusOnes } from '../github/thread.js';
import type { IssueKey } from '../keys.js';

/**
 * The command comments the app already answered with its 👍 (docs/protocol.md §16): an
 * accepted command leaves no comment, so that reaction is the only record that it ran.
 * `commands` are those no reply answers; who reacted is read only where GitHub counts a 👍
 * above 0, or does not say (a kept answer from before it was kept): a command nobody
 * reacted to costs no call.
 */
export async function reactedCommands(
  deps: { readonly octokit: ProbotOctokit; readonly reads: ReadCache; readonly appLogin: string },
  key: IssueKey,
  commands: readonly number[],
  plusOnes: PlusOnes,
): Promise<ReadonlySet<number>> {
  const reacted = new Set<number>();
  for (const id of commands) {
    if (plusOnes.get(id) === 0) continue;
    if (await reactedByApp(deps.octokit, deps.reads, key, id, deps.appLogin)) reacted.add(id);
  }
  return reacted;
}
