import type { IssueFacts } from '../claims/issue-facts.js';
import { parseClaimMarker } from '../claims/marker.js';
import { hasName, sameName } from '../claims/names.js';
import { type Command, type CommandVerb, parseCommand } from './commands.js';
import { peopleNotes, type Reply } from './note-tags.js';

/** A command of the thread, with how the app answered it. */
export interface ThreadCommand {
  readonly id: number;
  readonly author: string;
  readonly createdAt: Date;
  readonly verb: CommandVerb;
  readonly target?: string;
  /** Whom it is about: the target, else its author. */
  readonly login: string;
  /** Null: pending, never answered. A 👍 alone is `accepted`. */
  readonly answer: Reply | null;
  /**
   * GitHub's `updated_at` is later than its `created_at`: the comment was edited, so the
   * command may not have been there when it was posted. A pending one is never run.
   */
  readonly edited: boolean;
}

/**
 * Whose comments are never commands, and who is never a person (docs/protocol.md §16): the
 * app itself, a `[bot]` login, and any account GitHub reported as `type: "Bot"` on the issue
 * (its Copilot agent is assigned as plain `Copilot`).
 */
export function isBot(login: string, facts: Pick<IssueFacts, 'appLogin' | 'bots'>): boolean {
  return (
    login.toLowerCase().endsWith('[bot]') ||
    sameName(login, facts.appLogin) ||
    hasName(facts.bots ?? [], login)
  );
}

/**
 * The thread's commands (docs/protocol.md §16), oldest first: one per comment of a person,
 * never from a comment that carries a claim marker, none older than `windowMs` (ignored, like
 * a stale claim). `reacted` are the comments the app already gave its 👍. Edited comments are
 * listed too, marked: one the app answered still counts (a waiting `/claim` stays in line),
 * one it did not is never run (isRunnable).
 */
export function threadCommands(
  facts: IssueFacts,
  { slug, reacted }: { readonly slug: string; readonly reacted: ReadonlySet<number> },
  windowMs: number,
  now: Date,
): ThreadCommand[] {
  const { replies } = peopleNotes(facts);
  const out: ThreadCommand[] = [];
  for (const comment of facts.comments) {
    if (isBot(comment.author, facts)) continue;
    if (now.getTime() - comment.createdAt.getTime() > windowMs) continue;
    if (parseClaimMarker(comment.body) !== null) continue;
    const command: Command | null = parseCommand(comment.body, slug);
    if (command === null) continue;
    const answer =
      replies.get(comment.id) ??
      (reacted.has(comment.id) ? { outcome: 'accepted' as const, at: comment.createdAt } : null);
    out.push({
      id: comment.id,
      author: comment.author,
      createdAt: comment.createdAt,
      ...command,
      login: command.target ?? comment.author,
      answer,
      edited: comment.updatedAt.getTime() > comment.createdAt.getTime(),
    });
  }
  return out.sort((a, b) => a.id - b.id);
}

/**
 * docs/protocol.md §16: a command runs once, and only as posted: not answered yet, and its
 * comment never edited (an edit could have put the command there after the fact, and GitHub
 * shows no older body without GraphQL).
 */
export function isRunnable(command: ThreadCommand): boolean {
  return command.answer === null && !command.edited;
}
