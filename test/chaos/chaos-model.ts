/**
 * What the chaos test's sessions did, and the invariants the app's end state must satisfy
 * (docs/protocol.md §3, §4). The model is written only by the sessions; what the app did is read from the
 * fake GitHub (its threads and its request log), never from the app.
 */
import { expiryNoteTag } from '../../src/claims/expiry-note.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';

/** The stale window the chaos app runs with (CLAIMS_STALE_AFTER=10m). */
export const STALE_AFTER_MS = 10 * 60_000;

export const IN_PROGRESS = 'status:in-progress';
export const BLOCKED = 'status:blocked';

/** One issue of the storm. */
export interface IssueRef {
  readonly repo: string;
  readonly number: number;
}

/** One version of a claim's marker as its session wrote it. */
export interface Version {
  /** When the session wrote it (ms). */
  readonly at: number;
  readonly stage: string;
  /** The marker's `updated` (ms); far in the past when the session went stale. */
  readonly updated: number;
}

/** A claim comment and its history, as the session knows it. */
export interface ClaimRecord {
  readonly id: number;
  readonly issue: IssueRef;
  readonly author: string;
  readonly trusted: boolean;
  readonly session: string;
  readonly started: Date;
  readonly versions: Version[];
  /** The session stopped: it released, went stale, or found its claim finalised. */
  dead: boolean;
}

/** A finalisation the app wrote: a PATCH of a claim comment by the app's bot. */
interface Finalisation {
  readonly commentId: number;
  readonly at: number;
  readonly reason: string;
}

function heartbeatFresh(version: Version, t: number): boolean {
  const heartbeat = Math.min(version.updated, version.at);
  return t - heartbeat <= STALE_AFTER_MS && heartbeat - t <= STALE_AFTER_MS;
}

/** The session's version of the claim in force at `t`, if it was posted by then. */
function versionAt(claim: ClaimRecord, t: number): Version | undefined {
  let found: Version | undefined;
  for (const version of claim.versions) if (version.at <= t) found = version;
  return found;
}

/**
 * Whether the claim was live at `t` as far as its session and the app's earlier
 * finalisations tell: posted, not released, fresh, and not yet finalised by the app.
 */
function liveAt(claim: ClaimRecord, t: number, finalisedAt: number | undefined): boolean {
  const version = versionAt(claim, t);
  if (!version || version.stage === 'released') return false;
  if (finalisedAt !== undefined && finalisedAt <= t) return false;
  return heartbeatFresh(version, t);
}

/** The app's finalisations, from the fake's request log: successful PATCHes by the bot. */
function finalisations(fake: FakeGitHub): Finalisation[] {
  const out: Finalisation[] = [];
  for (const request of fake.requests) {
    if (request.method !== 'PATCH' || request.actor !== fake.botLogin) continue;
    if (request.status !== 200) continue;
    const match = /\/issues\/comments\/(\d+)$/.exec(request.path);
    if (!match) continue;
    const body = (request.body as { body?: string } | undefined)?.body ?? '';
    out.push({
      commentId: Number(match[1]),
      at: request.at.getTime(),
      reason: /^- Reason: (.*)$/m.exec(body)?.[1] ?? '(no reason line)',
    });
  }
  return out;
}

/**
 * Checks every invariant on every issue; returns the violations (empty when all hold).
 *
 * - docs/protocol.md §3: at most one live claim; after quiescence every other trusted claim is released.
 * - docs/protocol.md §4: `status:in-progress` iff a holder; `status:blocked` iff the holder is blocked;
 *   the holder's author assigned, every other claimant (all wrote `assignee=claim`) not.
 * - Nothing finalised that was the rightful holder: a claim finalised as lost had an older
 *   claim that was live at some moment between the loser's posting and the finalisation; one
 *   finalised as stale had gone stale by then. No other reason occurs in this storm.
 * - Untrusted markers are never touched; at most one expiry note per stale claim.
 */
export function checkInvariants(
  fake: FakeGitHub,
  issues: readonly IssueRef[],
  claims: readonly ClaimRecord[],
  now: number,
): string[] {
  const problems: string[] = [];
  const byId = new Map(claims.map((claim) => [claim.id, claim]));
  const finals = finalisations(fake);
  const firstFinal = new Map<number, number>();
  for (const f of finals) if (!firstFinal.has(f.commentId)) firstFinal.set(f.commentId, f.at);

  for (const ref of issues) {
    const where = `${ref.repo}#${ref.number}`;
    const issue = fake.issue(ref.repo, ref.number);
    const comments = fake.comments(ref.repo, ref.number);
    const trustedClaims = comments
      .filter((c) => byId.get(c.id)?.trusted)
      .map((c) => ({ comment: c, marker: parseClaimMarker(c.body ?? '') }));
    const unreleased = trustedClaims.filter((c) => c.marker && c.marker.stage !== 'released');
    const live = unreleased.filter((c) => {
      const heartbeat = Math.min(c.marker!.updated.getTime(), Date.parse(c.comment.updated_at));
      return now - heartbeat <= STALE_AFTER_MS && heartbeat - now <= STALE_AFTER_MS;
    });
    if (live.length > 1) {
      problems.push(`${where}: ${live.length} live claims (${live.map((c) => c.comment.id)})`);
    }
    if (unreleased.length > live.length) {
      const stale = unreleased.filter((c) => !live.includes(c)).map((c) => c.comment.id);
      problems.push(`${where}: stale claims left unreleased: ${stale}`);
    }
    const holder = live.length === 1 ? live[0]! : undefined;
    const labels = issue.labels.map((l) => l.toLowerCase());
    if (labels.includes(IN_PROGRESS) !== (holder !== undefined)) {
      problems.push(
        `${where}: label ${IN_PROGRESS} ${holder ? 'missing for holder' : 'present without holder'} ${holder?.comment.id ?? ''} (labels: ${issue.labels})`,
      );
    }
    const blocked = holder?.marker?.stage === 'blocked';
    if (labels.includes(BLOCKED) !== blocked) {
      problems.push(`${where}: label ${BLOCKED} should be ${blocked ? 'present' : 'absent'}`);
    }
    const holderAuthor = holder?.comment.user?.login;
    if (holderAuthor && !issue.assignees.includes(holderAuthor)) {
      problems.push(`${where}: holder ${holderAuthor} not assigned (${issue.assignees})`);
    }
    for (const author of new Set(trustedClaims.map((c) => c.comment.user?.login ?? ''))) {
      if (author !== holderAuthor && issue.assignees.includes(author)) {
        problems.push(
          `${where}: ${author} still assigned without holding (holder ${holderAuthor})`,
        );
      }
    }
    // docs/protocol.md §4: one note per stale claim (the tag makes the note idempotent).
    const notes = comments.filter((c) => c.user?.login === fake.botLogin);
    const noted = new Map<string, number>();
    for (const note of notes) {
      const tag = (note.body ?? '').split('\n')[0] ?? '';
      noted.set(tag, (noted.get(tag) ?? 0) + 1);
    }
    for (const [tag, count] of noted) {
      if (count > 1) problems.push(`${where}: ${count} notes "${tag}"`);
      const id = Number(/ comment=(\d+) -->$/.exec(tag)?.[1]);
      if (tag !== expiryNoteTag(id)) {
        problems.push(`${where}: an app comment that is no expiry note: "${tag}"`);
      } else if (!byId.get(id)?.versions.some((v) => !heartbeatFresh(v, v.at))) {
        problems.push(`${where}: an expiry note for claim ${id}, whose session never went stale`);
      }
    }
  }

  for (const final of finals) {
    const claim = byId.get(final.commentId);
    if (!claim) {
      problems.push(`comment ${final.commentId} finalised but no session posted it`);
      continue;
    }
    const what = `claim ${claim.id} (${claim.author}, ${claim.session}) finalised at +${final.at - claims[0]!.versions[0]!.at} ms`;
    if (!claim.trusted) {
      problems.push(`${what}: an untrusted marker was edited`);
      continue;
    }
    const lost = /^lost to the older claim in comment (\d+) \(session (\S+)\)$/.exec(final.reason);
    if (lost) {
      const older = byId.get(Number(lost[1]));
      const posted = claim.versions[0]!.at;
      if (!older?.trusted || older.id >= claim.id || older.session !== lost[2]) {
        problems.push(`${what}: "${final.reason}" names no older trusted claim`);
        continue;
      }
      // The app read the thread at some moment after the loser was posted and before it
      // wrote; the older claim must have been live at one of those moments.
      const moments = [posted, ...older.versions.map((v) => v.at)].filter(
        (t) => t >= posted && t <= final.at,
      );
      const olderFinal = firstFinal.get(older.id);
      if (!moments.some((t) => liveAt(older, t, olderFinal))) {
        problems.push(
          `${what}: "${final.reason}", but claim ${older.id} was never live in that time: the rightful holder was finalised`,
        );
      }
      continue;
    }
    if (/^stale since /.test(final.reason)) {
      const wentStale = claim.versions.some((v) => v.at <= final.at && !heartbeatFresh(v, v.at));
      if (!wentStale) problems.push(`${what}: "${final.reason}", but its session never went stale`);
      continue;
    }
    problems.push(`${what}: unexpected reason "${final.reason}"`);
  }
  return problems;
}
