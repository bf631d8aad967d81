import { hasNote } from '../claims/has-note.js';
import { sameName } from '../claims/names.js';
import { expiredTag, remindTag } from './note-tags.js';
import { expiredNote, reminderNote } from './note-texts.js';
import { type Holding, holderOf, type PeopleRun, unassign } from './people-run.js';
import type { PersonClaim } from './person-claims.js';

/**
 * docs/protocol.md §16 `people.expire`: whether a person claim goes stale at all. `commands`:
 * only the app's own assignments (made for a `/claim`); a pinned holder never.
 */
export function expires(run: PeopleRun, claim: PersonClaim): boolean {
  if (run.pinned && isHolder(run, claim)) return false;
  if (run.rules.expire === 'never') return false;
  return run.rules.expire === 'all' || sameName(claim.actor, run.facts.appLogin);
}

function isHolder(run: PeopleRun, claim: PersonClaim): boolean {
  const holding = holderOf(run);
  return holding?.kind === 'person' && holding.claim === claim;
}

/** When the claim goes stale: one millisecond past one window after its heartbeat, as agents'. */
export function staleAt(run: PeopleRun, claim: PersonClaim): Date {
  return new Date(claim.heartbeat.getTime() + run.rules.staleAfterMs + 1);
}

/** When the one reminder of this quiet spell is due; null with `remindAfter: 0`. */
export function remindAt(run: PeopleRun, claim: PersonClaim): Date | null {
  if (run.rules.remindAfterMs === 0) return null;
  return new Date(claim.heartbeat.getTime() + run.rules.remindAfterMs);
}

/** Whether this quiet spell's reminder was posted, before or in this run. */
export function reminded(run: PeopleRun, claim: PersonClaim): boolean {
  const tag = remindTag(claim.login, claim.heartbeat);
  return (
    hasNote(run.facts, tag) ||
    run.notes.some((n) => n.kind === 'post-note' && n.body.startsWith(tag))
  );
}

/**
 * On an open issue, each person claim that expires: unassigned with a note once stale, else
 * reminded once when its reminder is due.
 */
export function expireAndRemind(run: PeopleRun): void {
  if (!run.facts.open) return;
  const now = run.now.getTime();
  for (const claim of run.persons.filter((c) => expires(run, c))) {
    if (staleAt(run, claim).getTime() <= now) {
      unassign(run, claim.login);
      const tag = expiredTag(claim.login, claim.heartbeat);
      if (!hasNote(run.facts, tag)) {
        run.notes.push({ kind: 'post-note', forCommentId: 0, body: expiredNote(tag, run, claim) });
      }
      continue;
    }
    const due = remindAt(run, claim);
    if (due !== null && due.getTime() <= now && !reminded(run, claim)) {
      const tag = remindTag(claim.login, claim.heartbeat);
      run.notes.push({
        kind: 'post-note',
        forCommentId: 0,
        body: reminderNote(tag, claim, staleAt(run, claim)),
      });
    }
  }
}

/** When the holder's claim goes stale, of either kind; null when it does not (pinned, exempt). */
export function holdingStaleAt(run: PeopleRun, holding: Holding): Date | null {
  if (holding.kind === 'person')
    return expires(run, holding.claim) ? staleAt(run, holding.claim) : null;
  if (run.pinned) return null;
  // docs/protocol.md §17: a stale claim in its grace holds until the grace ends.
  const { graceUntil, heartbeat } = holding.agent.holder;
  return graceUntil ?? new Date(heartbeat.getTime() + run.config.staleAfterMs + 1);
}
