import { renderClaimComment } from '../../claims/comment.js';
import type { Action } from '../../claims/decide.js';
import { type ClaimComment, isStale, staleSince } from '../../claims/liveness.js';
import { formatClaimTime } from '../../claims/marker.js';
import { sameName } from '../../claims/names.js';
import type { AssigneeMode, ClaimMarker } from '../../claims/types.js';
import { applyActions, hasLabel, isAssigned } from '../io/apply-actions.js';
import { describeFailure } from '../io/describe-failure.js';
import type { Desk } from '../io/desk.js';
import { type IssueState, readIssueState } from '../io/issue-state.js';
import { abandonHalfMade, type HalfMadeClaim } from './abandon-half-made.js';
import { abandonLosers } from './abandon-losers.js';
import { describeClaim, viewIn } from './claim-view.js';
import { refused, unverifiable } from './client-error.js';
import { type CommandResult, ok } from './command-result.js';
import { finaliseAction } from './finalise-action.js';
import { heldRefusal } from './held-refusal.js';
import { formatIssueRef, type IssueRef } from './issue-ref.js';
import { ownedBy, publicIdentity } from './public-identity.js';
import { resumeClaim } from './resume-claim.js';

/** A claim request: the issue and the session's identity, already validated. */
export interface ClaimRequest {
  readonly ref: IssueRef;
  readonly session: string;
  readonly lane: string;
  readonly branch: string;
}

/**
 * Claims an issue for a session (seed "What a claim writes", "Refusal, takeover and the
 * stale window"):
 * - refused, naming the holder, while another session holds a live claim;
 * - resumed when the session already holds it (nothing rewritten; labels repaired);
 * - otherwise a new claim comment is posted (with a Takeover line when a stale claim is
 *   replaced, which is then finalised as abandoned), the in-progress label added and the
 *   account assigned, recording `assignee=claim` or `before`;
 * - then the thread is read back and the holder computed as the oldest live claim: a session
 *   that lost a race finalises its own comment as abandoned and is told the winner.
 * When the comment was written but a later step failed, the half-made claim is finalised as
 * abandoned and the labels it applied removed (seed "Failure behaviour").
 */
export async function claim(desk: Desk, request: ClaimRequest): Promise<CommandResult> {
  const { ref } = request;
  const name = formatIssueRef(ref);
  // Checked before the first read, so a refusal leaves nothing half-written.
  desk.guard.check(request.branch, 'the branch');
  const [state, login] = await Promise.all([readIssueState(desk, ref), desk.login()]);
  if (!state.thread.open) {
    // Seed: only the open state is claimable; reopening stays a deliberate act.
    const reason = state.thread.stateReason ? ` (${state.thread.stateReason})` : '';
    throw refused(`${name} is closed${reason}; a claim needs an open issue. Nothing was written.`, {
      issue: name,
      reason: 'closed',
      state: 'closed',
      stateReason: state.thread.stateReason,
    });
  }
  const own = ownedBy(desk.key, request.session);
  const { holder } = state;
  if (holder && own(holder)) return resumeClaim(desk, state, holder, own, request, login);
  if (holder) {
    const finalised = await abandonLosers(desk, state, holder, own);
    throw heldRefusal(state, holder, {
      ...(finalised?.length ? { finalised: finalised[0]! } : {}),
      cleanupFailed: finalised === null,
    });
  }
  return postClaim(desk, state, request, login, own);
}

/** No live holder: post a new claim (a takeover when stale claims remain), then confirm it. */
async function postClaim(
  desk: Desk,
  state: IssueState,
  request: ClaimRequest,
  login: string,
  own: (claim: ClaimComment) => boolean,
): Promise<CommandResult> {
  const { ref } = state;
  const name = formatIssueRef(ref);
  const { labels, assign, staleAfterMs } = state.config;
  // With no holder on an open issue every unreleased claim is stale (SPEC §3); each is
  // finalised, and the oldest, the one that held the issue, is named as replaced.
  const stale = state.claims.filter(
    (claim) => claim.marker.stage !== 'released' && isStale(claim, staleAfterMs, state.now),
  );
  const replaced = stale[0];
  const wasAssigned = isAssigned(state, login);
  // Seed: a takeover of a stale claim the same account wrote, whose assignment it added,
  // keeps `claim`: the assignment is still the claim's to remove on release.
  const inherits = stale.some(
    (claim) => sameName(claim.comment.author, login) && claim.marker.assignee === 'claim',
  );
  const mode: AssigneeMode | undefined = assign
    ? !wasAssigned || inherits
      ? 'claim'
      : 'before'
    : undefined;
  const now = desk.now();
  const sessionTag = publicIdentity(desk.key, 'session', request.session);
  const marker: ClaimMarker = {
    session: sessionTag,
    lane: publicIdentity(desk.key, 'lane', request.lane),
    branch: request.branch,
    started: now,
    updated: now,
    stage: 'claimed',
    ...(mode ? { assignee: mode } : {}),
  };
  const body = renderClaimComment(
    marker,
    replaced
      ? {
          takeover: {
            commentId: replaced.comment.id,
            session: publicIdentity(desk.key, 'session', replaced.marker.session),
          },
        }
      : {},
  );
  desk.guard.check(body, 'the claim comment');

  let posted: ClaimComment;
  try {
    const { data } = await desk.octokit.rest.issues.createComment({
      owner: ref.owner,
      repo: ref.repo,
      issue_number: ref.number,
      body,
    });
    posted = {
      marker,
      comment: {
        id: data.id,
        author: data.user?.login ?? login,
        authorAssociation: data.author_association,
        body,
        createdAt: new Date(data.created_at),
        updatedAt: new Date(data.updated_at),
        ...(data.html_url ? { url: data.html_url } : {}),
      },
    };
  } catch (error) {
    throw unverifiable(
      `${name}: posting the claim comment failed; if GitHub kept it anyway, running claim again resumes it`,
      { issue: name },
      error,
    );
  }

  const written: HalfMadeClaim = {
    posted,
    takeover: replaced !== undefined,
    addedLabel: !hasLabel(state, labels.inProgress),
    assigned: mode === 'claim' && !wasAssigned,
    login,
  };
  let readback: IssueState;
  try {
    const actions: Action[] = stale.map((claim) =>
      finaliseAction(desk, claim, {
        own: own(claim),
        outcome: 'abandoned',
        reason: 'stale',
        text: `stale since ${formatClaimTime(staleSince(claim, staleAfterMs, state.now))}; taken over by comment ${posted.comment.id} (session ${sessionTag})`,
      }),
    );
    // The new claim's stage is `claimed`, so a blocked label left by a stale claim goes.
    if (hasLabel(state, labels.blocked))
      actions.push({ kind: 'remove-label', label: labels.blocked });
    if (written.addedLabel)
      actions.push({ kind: 'add-label', label: labels.inProgress, role: 'inProgress' });
    if (written.assigned) actions.push({ kind: 'assign', login });
    // SPEC §4, as the app does it: an account whose finalised claim recorded `assignee=claim`
    // is unassigned unless it holds the issue, so the stale holder's assignment goes too.
    for (const author of takenOverAssignees(state, stale, login)) {
      actions.push({ kind: 'unassign', login: author });
    }
    await applyActions(desk, state, actions);
    readback = await readIssueState(desk, ref);
  } catch (error) {
    throw await abandonHalfMade(desk, state, written, describeFailure(error), { cause: error });
  }
  return confirm(desk, readback, written, stale);
}

/** Reads the read-back: held, lost to an older claim, or not counted at all. */
async function confirm(
  desk: Desk,
  readback: IssueState,
  written: HalfMadeClaim,
  stale: readonly ClaimComment[],
): Promise<CommandResult> {
  const name = formatIssueRef(readback.ref);
  const id = written.posted.comment.id;
  const mine = readback.claims.find((claim) => claim.comment.id === id);
  const comment = readback.thread.comments.find((c) => c.id === id);
  if (comment && !mine) {
    // SPEC §2: the app and every other client skip markers from untrusted authors, so this
    // claim would hold nothing; do not leave it looking like one.
    const cause = `@${comment.author} is not trusted to claim here (author_association ${comment.authorAssociation}); only owners, members, collaborators and the repository's trustedBots count`;
    await abandonHalfMade(desk, readback, written, cause);
    throw refused(`${name}: ${cause}. The comment was finalised as abandoned.`, {
      issue: name,
      reason: 'untrusted',
      finalised: id,
    });
  }
  const { holder } = readback;
  if (mine && holder === mine) {
    const view = viewIn(readback, mine);
    const replaced = stale.map((claim) => viewIn(readback, claim));
    const took = replaced[0];
    return ok(
      took
        ? `took over ${name} from the stale claim in comment ${took.commentId} (session ${took.session}): ${describeClaim(view)}`
        : `claimed ${name}: ${describeClaim(view)}`,
      { issue: name, action: took ? 'took-over' : 'claimed', claim: view, replaced },
    );
  }
  if (mine && holder) {
    // Lost a race to an older live claim (seed: ConcurrentClaimerLosesToLowerCommentID).
    const actions: Action[] = [
      finaliseAction(desk, mine, {
        own: true,
        outcome: 'abandoned',
        reason: 'lost',
        text: `lost to the older claim in comment ${holder.comment.id} (session ${holder.marker.session})`,
      }),
    ];
    if (
      written.assigned &&
      !sameName(holder.comment.author, written.login) &&
      isAssigned(readback, written.login)
    ) {
      actions.push({ kind: 'unassign', login: written.login });
    }
    let cleanupFailed = false;
    try {
      await applyActions(desk, readback, actions);
    } catch {
      cleanupFailed = true;
    }
    throw heldRefusal(readback, holder, {
      lostRace: true,
      ...(cleanupFailed ? { cleanupFailed } : { finalised: id }),
    });
  }
  throw await abandonHalfMade(
    desk,
    readback,
    written,
    comment
      ? `comment ${id} does not read back as a live claim (is this machine's clock off by more than the stale window?)`
      : `comment ${id} was deleted before it could be confirmed`,
    { gone: comment === undefined },
  );
}

/** The assigned authors of replaced stale claims that recorded `assignee=claim`, once each. */
function takenOverAssignees(
  state: IssueState,
  stale: readonly ClaimComment[],
  login: string,
): string[] {
  const authors = new Map<string, string>();
  for (const claim of stale) {
    const author = claim.comment.author;
    if (claim.marker.assignee !== 'claim' || sameName(author, login)) continue;
    const assigned = state.thread.assignees.find((a) => sameName(a, author));
    if (assigned) authors.set(author.toLowerCase(), assigned);
  }
  return [...authors.values()];
}
