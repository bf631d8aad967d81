import type { IssueFacts } from '../claims/issue-facts.js';
import { formatClaimTime } from '../claims/marker.js';
import { sameName } from '../claims/names.js';
import type { Action } from '../claims/plan.js';
import type { HostedClaim } from './hosted-claims.js';

/** The claim that holds while a hosted agent works beside it, as the note names it. */
export interface EarlierHolder {
  /** Stable per claim: an agent's comment id, a person's login. */
  readonly ref: string;
  /** `@alice's session`, `@alice`. */
  readonly who: string;
  readonly since: Date;
}

/** The hidden first line of the note, less its `pull=` key: one note per agent and holder. */
function tagOf(claim: HostedClaim, holder: EarlierHolder): string {
  return `<!-- claim-warden note=hosted-duplicate login=${claim.login.toLowerCase()} holder=${holder.ref}`;
}

function fullTag(claim: HostedClaim, holder: EarlierHolder, pull: number | null): string {
  return `${tagOf(claim, holder)} pull=${pull ?? '-'} -->`;
}

/**
 * docs/protocol.md §18: a hosted agent working on an issue that an earlier claim holds is
 * told once, on the issue (mentioning who assigned it) and on its pull request when it has
 * one: "#12 is held by @alice's session since …; this work may be duplicated". The issue's
 * note records in its hidden tag which pull request was told, since the app reads no pull
 * request's comments: a pull request opened later gets its note, and the tag is rewritten.
 */
export function duplicateNotes(
  facts: IssueFacts,
  issue: string,
  waiting: readonly HostedClaim[],
  holder: EarlierHolder | null,
): Action[] {
  if (holder === null || !facts.open) return [];
  const number = issue.slice(issue.lastIndexOf('#'));
  const line = `${number} is held by ${holder.who} since ${formatClaimTime(holder.since)}; this work may be duplicated.`;
  const actions: Action[] = [];
  for (const claim of waiting) {
    const pull = claim.pull?.number ?? null;
    const prefix = `${tagOf(claim, holder)} `;
    const note = facts.comments.find(
      (c) => sameName(c.author, facts.appLogin) && c.body.startsWith(prefix),
    );
    const told = note ? /^[^\n]* pull=(\d+) -->/.exec(note.body)?.[1] : undefined;
    if (pull !== null && told !== String(pull)) {
      actions.push({
        kind: 'post-note',
        forCommentId: 0,
        onPull: pull,
        body: `<!-- claim-warden note=hosted-duplicate-pull issue=${number.slice(1)} -->\n@${claim.login.replace(/\[bot\]$/i, '')} ${line}`,
      });
    }
    const tag = fullTag(claim, holder, pull ?? (told ? Number(told) : null));
    if (note === undefined) {
      const assigner = claim.assignedBy ? `@${claim.assignedBy} ` : '';
      const what = claim.assignedBy
        ? `assigned ${claim.login}`
        : `${claim.login} opened a pull request`;
      actions.push({
        kind: 'post-note',
        forCommentId: 0,
        body: `${tag}\n${assigner}${what}, but ${line}`,
      });
    } else if (pull !== null && told !== String(pull)) {
      actions.push({
        kind: 'edit-note',
        commentId: note.id,
        body: note.body.replace(/^[^\n]*/, tag),
      });
    }
  }
  return actions;
}
