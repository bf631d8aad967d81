import { sameName } from '../claims/names.js';
import { servedTag } from './note-tags.js';
import { servedNote } from './note-texts.js';
import { assign, holderOf, type PeopleRun, personOf } from './people-run.js';
import { newClaim } from './person-claims.js';
import { mayClaim, overCap } from './roles.js';
import { isBot } from './thread-commands.js';

/** A person waiting for the issue: their refused `/claim`, and since when they wait. */
interface Waiting {
  readonly commentId: number;
  readonly login: string;
  /** `/claim @login`: a triager vouched for them, so `people.who` does not apply. */
  readonly onBehalf: boolean;
  /** When the app told them they wait. */
  readonly since: Date;
}

/**
 * docs/protocol.md §16: the waitlist, derived from the thread: `/claim`s answered as waiting,
 * oldest first, one per person, less those served, those assigned now, and those a later
 * `/release` of the same person took off it (the thread's commands are all within the window
 * already).
 */
export function waitlistOf(run: PeopleRun): Waiting[] {
  const out: Waiting[] = [];
  for (const command of run.commands) {
    if (command.verb !== 'claim' || command.answer?.outcome !== 'waitlisted') continue;
    if (run.served.has(command.id) || personOf(run, command.login)) continue;
    if (out.some((w) => sameName(w.login, command.login))) continue;
    const released = run.commands.some(
      (later) =>
        later.id > command.id &&
        later.verb === 'release' &&
        later.answer?.outcome === 'accepted' &&
        sameName(later.login, command.login),
    );
    if (released) continue;
    out.push({
      commentId: command.id,
      login: command.login,
      onBehalf: command.target !== undefined,
      since: command.answer.at,
    });
  }
  return out;
}

/** Still allowed to claim and under the cap, as when they asked. */
function eligible(run: PeopleRun, waiting: Waiting): boolean {
  if (isBot(waiting.login, run.facts)) return false;
  // docs/protocol.md §17: an issue in review is served to no one but the stale claim's author.
  if (run.review && !(run.review.owner && sameName(run.review.owner, waiting.login))) return false;
  if (!waiting.onBehalf && !mayClaim(run.people, run.rules, run.facts.labels, waiting.login)) {
    return false;
  }
  return overCap(run.people, run.rules, waiting.login) === null;
}

/**
 * docs/protocol.md §16: on an open issue no one holds, the first eligible person in line is
 * assigned, with one note. An agent claim posted after they began to wait does not hold
 * against them: agents cannot claim a waited-for issue meanwhile.
 */
export function serveWaitlist(run: PeopleRun): void {
  if (!run.facts.open) return;
  const holding = holderOf(run);
  // A person holding is ahead of the line, and so is a hosted agent, holding or not: it holds
  // once the earlier claim ends (docs/protocol.md §18).
  if (holding?.kind === 'person' || holding?.kind === 'hosted' || run.hosted.length > 0) return;
  const first = waitlistOf(run).find((waiting) => eligible(run, waiting));
  if (first === undefined) return;
  if (holding && holding.agent.createdAt.getTime() <= first.since.getTime()) return;
  run.agent = null;
  assign(run, newClaim(first.login, run.facts.appLogin, run.now));
  run.served.add(first.commentId);
  const tag = servedTag(first.commentId, first.login);
  run.notes.push({
    kind: 'post-note',
    forCommentId: first.commentId,
    body: servedNote(tag, run, first.login),
  });
}
