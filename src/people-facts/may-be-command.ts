/**
 * Whether a comment may carry a command of docs/protocol.md §16 (`/claim`, `@slug release`, …
 * on a line of its own): a cheap first look, so ordinary comments cost no reconcile. The
 * reconcile reads the command itself (src/people/), fences and quotes included.
 */
export function mayBeCommand(body: string): boolean {
  return /^[ \t]*(?:\/|@[\w-]+[ \t]+\/?)(?:claim|release|unclaim|pin|unpin)\b/im.test(body);
}
