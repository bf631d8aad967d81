import type { IssueFacts } from './issue-facts.js';
import { sameName } from './names.js';

/** Whether the app already posted a note beginning with `tag`: notes are posted once. */
export function hasNote(facts: IssueFacts, tag: string): boolean {
  return facts.comments.some((c) => sameName(c.author, facts.appLogin) && c.body.startsWith(tag));
}
