import { parseClaimBody } from '../../../claims/claim-body.js';
import { isClaimTag } from '../../../claims/identity.js';
import type { ClaimComment } from '../../../claims/liveness.js';
import { readMarkerLine, renderClaimMarker } from '../../../claims/marker.js';
import { ownClaimBody } from '../../../claims/own-claim-body.js';
import { taggedMarker } from '../../../claims/public-identity.js';
import { refused, unverifiable } from '../../core/client-error.js';
import { type CommandResult, ok } from '../../core/command-result.js';
import type { IssueRef } from '../../core/issue-ref.js';
import { applyActions } from '../../io/apply-actions.js';
import { describeFailure } from '../../io/describe-failure.js';
import type { Desk } from '../../io/desk.js';
import { type IssueState, readIssueState } from '../../io/issue-state.js';
import { type ProtectedKind, textGuard } from '../../io/text-guard.js';

/** A migrate request, validated by the command layer. */
interface MigrateRequest {
  readonly owner: string;
  readonly repo: string;
  readonly issues: readonly number[];
  /** Without it, a dry run: report, change nothing. */
  readonly apply: boolean;
}

/** One legacy comment and what replaces it. */
interface Step {
  readonly legacy: ClaimComment;
  readonly body: string;
  readonly session: string;
  readonly lane: string;
  /** Why the note was dropped, when it was. */
  readonly droppedNote: ProtectedKind | null;
  /** A replacement a halted earlier run already posted: only the delete is left to do. */
  readonly posted: number | null;
}

/**
 * Migrates legacy claim comments, whose marker carries a plain session or lane, to keyed
 * tags (docs/agents.md, "Commands": `migrate`). Only trusted comments whose first line is a valid
 * marker are claims; nothing else is touched, and plain values are never printed.
 *
 * Dry run (default): one line per legacy comment with its stage and target tags, and
 * `note dropped: carries a protected <kind>` when its note would be refused by the guard.
 * Apply: per comment, post the same claim with tags (stage, times, outcome, branch and
 * assignee kept), then delete the legacy comment; then read the thread back and fail if a
 * legacy marker remains, a new comment is missing, or the holder changed. A failed delete
 * halts the command naming both comment ids; a rerun finds the posted replacement and only
 * deletes. An issue where a tagged unreleased claim follows a legacy unreleased one is refused
 * up front: its replacement would come after the tagged claim and change who holds the issue.
 */
export async function migrate(desk: Desk, request: MigrateRequest): Promise<CommandResult> {
  const lines: string[] = [];
  const reports: Record<string, unknown>[] = [];
  let refusedAny = false;
  for (const number of request.issues) {
    const ref: IssueRef = { owner: request.owner, repo: request.repo, number };
    const state = await readIssueState(desk, ref);
    const legacy = state.claims.filter(isLegacy);
    if (legacy.length === 0) {
      lines.push(`issue ${number}: no legacy claim comments`);
      reports.push({ issue: number, legacy: [] });
      continue;
    }
    const conflict = orderConflict(state.claims);
    if (conflict) {
      refusedAny = true;
      lines.push(
        `issue ${number}: refused: the tagged unreleased claim in comment ${conflict.tagged} comes after the legacy unreleased claim in comment ${conflict.legacy}; migrating would change who holds the issue`,
      );
      reports.push({ issue: number, refused: 'order', ...conflict });
      continue;
    }
    let steps: Step[];
    try {
      steps = legacy.map((claim) => plan(desk, state, claim));
    } catch (error) {
      refusedAny = true;
      lines.push(`issue ${number}: refused: ${describeFailure(error)}`);
      reports.push({ issue: number, refused: 'guard' });
      continue;
    }
    for (const step of steps) {
      lines.push(
        `issue ${number} comment ${step.legacy.comment.id}: stage ${step.legacy.marker.stage}, session ${step.session} lane ${step.lane}`,
      );
      if (step.droppedNote) lines.push(`note dropped: carries a protected ${step.droppedNote}`);
      if (step.posted !== null) {
        lines.push(
          `issue ${number} comment ${step.legacy.comment.id}: replacement already posted as comment ${step.posted}; only its deletion is left`,
        );
      }
    }
    const report: Record<string, unknown> = {
      issue: number,
      legacy: steps.map((step) => ({
        commentId: step.legacy.comment.id,
        stage: step.legacy.marker.stage,
        session: step.session,
        lane: step.lane,
        ...(step.droppedNote ? { noteDropped: step.droppedNote } : {}),
      })),
    };
    reports.push(report);
    if (!request.apply) continue;
    const migrated = await applySteps(desk, state, steps, lines);
    report.migrated = migrated;
    const problems = await verify(desk, state, migrated);
    if (problems.length > 0) {
      throw unverifiable(
        [
          ...lines,
          `issue ${number}: read-back after migration failed: ${problems.join('; ')}`,
        ].join('\n'),
        { issue: number, problems, migrated },
      );
    }
    lines.push(`issue ${number}: migrated and verified`);
  }
  const message = [
    request.apply ? 'migrate (apply)' : 'migrate (dry run: nothing changed)',
    ...lines,
  ].join('\n');
  const data = { repo: `${request.owner}/${request.repo}`, apply: request.apply, issues: reports };
  if (refusedAny) throw refused(message, data);
  return ok(message, data);
}

function isLegacy(claim: ClaimComment): boolean {
  return !isClaimTag(claim.marker.session) || !isClaimTag(claim.marker.lane);
}

/** The first tagged unreleased claim that sits after a legacy unreleased one, if any. */
function orderConflict(claims: readonly ClaimComment[]): { legacy: number; tagged: number } | null {
  let firstLegacy: number | null = null;
  for (const claim of claims) {
    if (claim.marker.stage === 'released') continue;
    if (isLegacy(claim)) firstLegacy ??= claim.comment.id;
    else if (firstLegacy !== null) return { legacy: firstLegacy, tagged: claim.comment.id };
  }
  return null;
}

/**
 * The replacement of one legacy comment, checked by the guard with that comment's own plain
 * session and lane protected. A note the guard refuses is dropped; a replacement that would
 * still publish a protected value (a branch naming the session, say) refuses the issue.
 */
function plan(desk: Desk, state: IssueState, claim: ClaimComment): Step {
  const guard = textGuard([
    { kind: 'session', value: claim.marker.session },
    { kind: 'lane', value: claim.marker.lane },
    ...desk.baseline,
  ]);
  const marker = taggedMarker(claim.marker, desk.key);
  const note = parseClaimBody(claim.comment.body)?.note;
  const droppedNote = note === undefined ? null : guard.find(note);
  // Reasons and other free text below the marker may name other sessions in plain: the
  // replacement keeps only the parts ownClaimBody carries over, plus the note when it is clean.
  const body = ownClaimBody(marker, {
    key: desk.key,
    guard,
    previousBody: claim.comment.body,
    keepNote: true,
  });
  guard.check(body, `the replacement of comment ${claim.comment.id}`);
  const line = renderClaimMarker(marker);
  const posted = state.claims.find(
    (other) => other.comment.id > claim.comment.id && readMarkerLine(other.comment.body) === line,
  );
  return {
    legacy: claim,
    body,
    session: marker.session,
    lane: marker.lane,
    droppedNote,
    posted: posted?.comment.id ?? null,
  };
}

/** Posts each replacement, then deletes its legacy comment; halts on the first failure. */
async function applySteps(
  desk: Desk,
  state: IssueState,
  steps: readonly Step[],
  lines: string[],
): Promise<{ legacy: number; replacement: number }[]> {
  const { number } = state.ref;
  const migrated: { legacy: number; replacement: number }[] = [];
  for (const step of steps) {
    const legacyId = step.legacy.comment.id;
    let replacement = step.posted;
    if (replacement === null) {
      try {
        const { posted } = await applyActions(desk, state, [
          { kind: 'post-claim', body: step.body },
        ]);
        replacement = posted[0]!.id;
      } catch (error) {
        throw unverifiable(
          [
            ...lines,
            `issue ${number} comment ${legacyId}: posting its replacement failed (${describeFailure(error)}); stopped`,
          ].join('\n'),
          { issue: number, legacy: legacyId, migrated },
          error,
        );
      }
    }
    try {
      await applyActions(desk, state, [{ kind: 'delete-comment', commentId: legacyId }]);
    } catch (error) {
      // Seed: both ids are reported and nothing more is posted. A rerun finds the replacement
      // by its marker and only deletes.
      throw unverifiable(
        [
          ...lines,
          `issue ${number}: posted comment ${replacement} to replace legacy comment ${legacyId}, but deleting ${legacyId} failed (${describeFailure(error)}); stopped. Delete ${legacyId} or run migrate --apply again.`,
        ].join('\n'),
        { issue: number, legacy: legacyId, replacement, migrated },
        error,
      );
    }
    lines.push(`issue ${number} comment ${legacyId}: replaced by comment ${replacement}`);
    migrated.push({ legacy: legacyId, replacement });
  }
  return migrated;
}

/**
 * Reads the thread back (docs/agents.md, "Commands": `migrate`): no legacy
 * marker may remain, every replacement must be there, and the holder must be the same claim
 * as before (a migrated holder is now its replacement). Returns the problems found.
 */
async function verify(
  desk: Desk,
  before: IssueState,
  migrated: readonly { legacy: number; replacement: number }[],
): Promise<string[]> {
  const after = await readIssueState(desk, before.ref);
  const problems: string[] = [];
  const remaining = after.claims.filter(isLegacy).map((claim) => claim.comment.id);
  if (remaining.length > 0) problems.push(`legacy claim comments remain: ${remaining.join(', ')}`);
  const ids = new Set(after.claims.map((claim) => claim.comment.id));
  const missing = migrated.filter((m) => !ids.has(m.replacement)).map((m) => m.replacement);
  if (missing.length > 0) problems.push(`replacement comments are missing: ${missing.join(', ')}`);
  const heldBefore = before.holder?.comment.id ?? null;
  const expected = migrated.find((m) => m.legacy === heldBefore)?.replacement ?? heldBefore;
  const heldAfter = after.holder?.comment.id ?? null;
  if (expected !== heldAfter) {
    problems.push(
      `the holder changed: comment ${heldBefore ?? 'none'} held the issue, now comment ${heldAfter ?? 'none'} does`,
    );
  }
  return problems;
}
