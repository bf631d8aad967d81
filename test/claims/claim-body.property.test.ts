import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editClaimBody, parseClaimBody } from '../../src/claims/claim-body.js';
import {
  type ClaimCommentOptions,
  foldText,
  MAX_NOTE_CHARS,
  releasedClaim,
  renderClaimComment,
} from '../../src/claims/comment.js';
import { decide } from '../../src/claims/decide.js';
import { claimTag } from '../../src/claims/identity.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { pathLineOf } from '../../src/claims/paths.js';
import { planClaim } from '../../src/claims/plan-claim.js';
import { planRelease } from '../../src/claims/plan-release.js';
import { planStatus } from '../../src/claims/plan-status.js';
import type { ClaimMarker, Stage, ThreadComment } from '../../src/claims/types.js';
import { DEFAULT_CONFIG, facts, HOUR, NOW } from '../helpers/thread-builder.js';
import { CLAIMANT, claimState } from './plan-state.js';

/*
 * Every edit of a claim comment keeps its path line byte for byte (docs/protocol.md §10) and
 * the note rules (one `- Note:` line at most, folded, at most 280 characters): the session's
 * own edits in direct mode (status, release, resume), the app's (finalise, push renewal) and
 * the API's (heartbeat, renew, release), on comments this renderer wrote and on comments
 * carrying a person's text below, which the app's and the API's edits keep.
 */

const SESSION = 'unit7';
const TAG = claimTag(CLAIMANT.key, 'session', SESSION);
const LANE = claimTag(CLAIMANT.key, 'lane', 'lane-a');

const segment = fc.stringMatching(/^[A-Za-z0-9_@+-][A-Za-z0-9._@+-]{0,7}$/);
const entry = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([segments, dir]) => `${segments.join('/')}${dir ? '/' : ''}`);
// `docs` and `docs/` are one entry (docs/protocol.md §10): unique without the slash.
const pathList = fc.uniqueArray(entry, {
  minLength: 1,
  maxLength: 6,
  selector: (path) => path.replace(/\/$/, ''),
});
/** Free text with whitespace runs, newlines and lookalike lines, folding to at most 280. */
const note = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', '\n- Stage: released\n', '- Note: x'),
    ),
    { maxLength: 30 },
  )
  .map((pieces) => pieces.join(''))
  .filter((text) => foldText(text).length <= MAX_NOTE_CHARS);
const liveStage = fc.constantFrom<Stage>(
  'claimed',
  'implementing',
  'review',
  'blocked',
  'fix-round-2',
);

const parts: fc.Arbitrary<ClaimCommentOptions & { stage: Stage }> = fc.record(
  {
    stage: liveStage,
    paths: pathList,
    note,
    takeover: fc.record({
      commentId: fc.integer({ min: 1, max: 2 ** 40 }),
      session: fc.constantFrom('h:0123456789ab', 'praetor-7', 'builder.2'),
    }),
    client: fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/),
  },
  { requiredKeys: ['stage'] },
);

/** A person's text below the claim's own lines, as Praetor's readers leave it. */
const foreignText = fc.option(
  fc.constantFrom('\n\nWorking on the retry path.', '\n\n> quoted:\n> - Stage: blocked'),
  { nil: undefined },
);

/** The claim comment of these parts, posted `ageMs` ago by alice, session unit7. */
function comment(
  p: ClaimCommentOptions & { stage: Stage },
  id: number,
  ageMs: number,
  extra = '',
): ThreadComment {
  const at = new Date(NOW.getTime() - ageMs);
  const marker: ClaimMarker = {
    session: TAG,
    lane: LANE,
    branch: 'feat/x',
    started: at,
    updated: at,
    stage: p.stage,
    assignee: 'claim',
  };
  return {
    id,
    author: 'alice',
    authorAssociation: 'COLLABORATOR',
    body: renderClaimComment(marker, p) + extra,
    createdAt: at,
    updatedAt: at,
  };
}

/** The second line, or null when the body has no path line. */
function pathLine(body: string): string | null {
  return pathLineOf(body).kind === 'none' ? null : body.split('\n')[1]!.replace(/\r$/, '');
}

/** The note rules: at most one `- Note:` line, folded, at most 280 characters; its text. */
function noteOf(body: string): string | undefined {
  const notes = body.split('\n').filter((line) => line.startsWith('- Note:'));
  expect(notes.length).toBeLessThanOrEqual(1);
  if (notes.length === 0) return undefined;
  const text = notes[0]!.slice('- Note: '.length);
  expect(text).toBe(foldText(text));
  expect(text.length).toBeLessThanOrEqual(MAX_NOTE_CHARS);
  return text;
}

function expectKept(before: string, after: string, expectedNote: string | undefined): void {
  expect(parseClaimMarker(after)).not.toBeNull();
  expect(pathLine(after)).toBe(pathLine(before));
  expect(noteOf(after)).toBe(expectedNote);
  const [was, is] = [parseClaimBody(before)!, parseClaimBody(after)!];
  expect(is.takeover?.commentId).toBe(was.takeover?.commentId);
  expect(is.client).toBe(was.client);
}

const folded = (text: string | undefined) => (text === undefined ? undefined : foldText(text));

describe('every edit of a claim comment keeps its path line and the note rules', () => {
  it('renders and parses back the same parts', () => {
    fc.assert(
      fc.property(parts, (p) => {
        const { body } = comment(p, 1, 0);
        const back = parseClaimBody(body)!;
        expect(back.paths).toEqual(p.paths);
        expect(back.note).toBe(folded(p.note));
        expect(back.takeover).toEqual(p.takeover);
        expect(back.client).toBe(p.client);
        expect(renderClaimComment(back.marker, back)).toBe(body);
      }),
    );
  });

  it('direct mode: status with and without a note (the session’s own rewrite)', () => {
    fc.assert(
      fc.property(parts, liveStage, fc.option(note, { nil: undefined }), (p, stage, n) => {
        const mine = comment(p, 1, HOUR);
        const plan = planStatus(
          claimState({ comments: [mine] }),
          { session: SESSION, stage, note: n },
          CLAIMANT,
          NOW,
        );
        if (plan.kind !== 'update') throw new Error(`expected an update, got ${plan.kind}`);
        expectKept(mine.body, plan.comment.body, folded(n));
        expect(parseClaimMarker(plan.comment.body)).toMatchObject({ stage, updated: NOW });
      }),
    );
  });

  it('direct mode: release finalises the own comment, keeping its note', () => {
    fc.assert(
      fc.property(parts, fc.option(note, { nil: undefined }), (p, n) => {
        const mine = comment(p, 1, HOUR);
        const plan = planRelease(
          claimState({ comments: [mine] }),
          { session: SESSION, outcome: 'landed', note: n },
          CLAIMANT,
          NOW,
        );
        if (plan.kind !== 'release') throw new Error(`expected a release, got ${plan.kind}`);
        expectKept(mine.body, plan.comment.body, folded(p.note));
        expect(plan.comment.body.split('\n').at(-2)).toBe('- Outcome: landed');
      }),
    );
  });

  it('direct mode: resume rewrites nothing of the holder and finalises a duplicate keeping its lines', () => {
    fc.assert(
      fc.property(parts, parts, (held, duplicate) => {
        const holder = comment(held, 1, 2 * HOUR);
        const newer = comment(duplicate, 2, HOUR);
        const plan = planClaim(
          claimState({ comments: [holder, newer], labels: ['status:in-progress'] }),
          { session: SESSION, lane: 'lane-a', branch: 'feat/x', login: 'alice' },
          CLAIMANT,
          NOW,
        );
        if (plan.kind !== 'resume') throw new Error(`expected a resume, got ${plan.kind}`);
        const edits = plan.actions.filter((a) => 'commentId' in a && 'body' in a);
        expect(edits.map((a) => ('commentId' in a ? a.commentId : 0))).toEqual([2]);
        const finalised = edits[0]!;
        if (!('body' in finalised)) throw new Error('no body');
        expectKept(newer.body, finalised.body, folded(duplicate.note));
      }),
    );
  });

  it('the app: finalising a stale claim, ours or with a person’s text, keeps every line but Stage', () => {
    fc.assert(
      fc.property(parts, foreignText, (p, extra) => {
        const stale = comment(p, 1, 7 * HOUR, extra);
        const plan = decide(facts({ comments: [stale] }), DEFAULT_CONFIG, NOW);
        const finalise = plan.actions.find((a) => a.kind === 'finalise');
        if (finalise?.kind !== 'finalise') throw new Error('expected a finalisation');
        expectKept(stale.body, finalise.body, folded(p.note));
        // Every line but the Stage line kept in place, Outcome and Reason closing the body.
        const lines = (body: string) =>
          body
            .split('\n')
            .slice(1)
            .filter((l) => !l.startsWith('- Stage:'));
        expect(lines(finalise.body).slice(0, -2)).toEqual(lines(stale.body));
      }),
    );
  });

  it('the app: a push renewal and the API’s heartbeat, renew and release keep the path line and the note', () => {
    fc.assert(
      fc.property(
        parts,
        foreignText,
        liveStage,
        fc.option(note, { nil: undefined }),
        (p, extra, stage, n) => {
          const { body } = comment(p, 1, HOUR, extra);
          const marker = parseClaimMarker(body)!;
          // renewOnPush: marker `updated` and the Updated line move to the push time.
          const pushed = editClaimBody(body, { marker: { ...marker, updated: NOW } });
          // heartbeatClaim: `updated`, the stage asked for and the note given.
          const beat = editClaimBody(body, { marker: { ...marker, updated: NOW, stage }, note: n });
          // postClaim's renewal without paths: `updated` and the note given.
          const renewed = editClaimBody(body, { marker: { ...marker, updated: NOW }, note: n });
          // releaseClaim: the finalisation of docs/protocol.md §4.
          const released = editClaimBody(body, {
            marker: releasedClaim(marker, 'abandoned', NOW),
            reason: 'released by its session through the claims API',
          });
          for (const [edited, expected] of [
            [pushed, folded(p.note)],
            [beat, folded(n ?? p.note)],
            [renewed, folded(n ?? p.note)],
            [released, folded(p.note)],
          ] as const) {
            expectKept(body, edited, expected);
            if (extra) expect(edited).toContain(extra.trim());
          }
          expect(parseClaimMarker(beat)).toMatchObject({ stage, updated: NOW });
          // Retrying an edit gives the same body (docs/protocol.md §6).
          expect(editClaimBody(pushed, { marker: parseClaimMarker(pushed)! })).toBe(pushed);
        },
      ),
    );
  });

  it('the API’s renew with paths replaces the path line, and nothing else of it', () => {
    fc.assert(
      fc.property(parts, pathList, (p, paths) => {
        const { body } = comment(p, 1, HOUR);
        const marker = { ...parseClaimMarker(body)!, updated: NOW };
        const renewed = editClaimBody(body, { marker, paths });
        expect(pathLineOf(renewed)).toEqual({ kind: 'valid', paths });
        expect(renewed).toBe(renderClaimComment(marker, { ...p, paths }));
      }),
    );
  });
});

describe('parseClaimBody', () => {
  it('reads the same parts from a body with \r\n line endings', () => {
    fc.assert(
      fc.property(parts, (p) => {
        const { body } = comment(p, 1, 0);
        expect(parseClaimBody(body.replaceAll('\n', '\r\n'))).toEqual(parseClaimBody(body));
      }),
    );
  });
});
