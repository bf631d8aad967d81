import type { IssueFacts } from '../claims/issue-facts.js';
import { formatClaimTime } from '../claims/marker.js';
import { sameName } from '../claims/names.js';

/**
 * The hidden first lines of the app's notes about people's claims (docs/protocol.md §16), in
 * the style of its other notes: they make each note once-only and carry no claim marker, so a
 * note is never read back as a claim.
 */

/** How the app answered a command: 👍 alone (accepted), or one reply. */
export type CommandOutcome = 'accepted' | 'refused' | 'waitlisted';

export function replyTag(commentId: number, outcome: CommandOutcome): string {
  return `<!-- claim-warden note=people-reply comment=${commentId} outcome=${outcome} -->`;
}

/** The note assigning the first person in line; `commentId` is their waiting `/claim`. */
export function servedTag(commentId: number, login: string): string {
  return `<!-- claim-warden note=people-served comment=${commentId} login=${login.toLowerCase()} -->`;
}

/** One reminder per quiet spell: `since` is the claim's heartbeat. */
export function remindTag(login: string, since: Date): string {
  return `<!-- claim-warden note=people-remind login=${login.toLowerCase()} since=${formatClaimTime(since)} -->`;
}

export function expiredTag(login: string, since: Date): string {
  return `<!-- claim-warden note=people-expired login=${login.toLowerCase()} since=${formatClaimTime(since)} -->`;
}

/** A reply of the app to a command, as its tag records it. */
export interface Reply {
  readonly outcome: CommandOutcome;
  /** When the app posted it: a waiting `/claim` waits from then. */
  readonly at: Date;
}

/** What the app's notes of the thread record: its replies and whom it served from the waitlist. */
interface PeopleNotes {
  readonly replies: ReadonlyMap<number, Reply>;
  readonly served: ReadonlySet<number>;
}

const REPLY =
  /^<!-- claim-warden note=people-reply comment=(\d+) outcome=(accepted|refused|waitlisted) -->/;
const SERVED = /^<!-- claim-warden note=people-served comment=(\d+) /;

/** The app's own notes only: anyone can write a tag, only the app's count. */
export function peopleNotes(facts: IssueFacts): PeopleNotes {
  const replies = new Map<number, Reply>();
  const served = new Set<number>();
  for (const comment of facts.comments) {
    if (!sameName(comment.author, facts.appLogin)) continue;
    const reply = REPLY.exec(comment.body);
    if (reply) {
      const id = Number(reply[1]);
      if (!replies.has(id)) {
        replies.set(id, { outcome: reply[2] as CommandOutcome, at: comment.createdAt });
      }
    }
    const serving = SERVED.exec(comment.body);
    if (serving) served.add(Number(serving[1]));
  }
  return { replies, served };
}
