import { describe, expect, it } from 'vitest';
import { editClaimBody } from '../../src/claims/claim-body.js';
import {
  foldText,
  MAX_NOTE_CHARS,
  releasedClaim,
  renderClaimComment,
} from '../../src/claims/comment.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { ClaimMarker } from '../../src/claims/types.js';

const CLAIM: ClaimMarker = {
  session: 'h:5f4dcc3b5aa7',
  lane: 'h:098f6bcd4621',
  branch: 'feat/x',
  started: new Date('2026-10-08T12:00:00Z'),
  updated: new Date('2026-10-08T12:30:00Z'),
  stage: 'review',
  assignee: 'claim',
};

const MARKER =
  '<!-- praetor-claim v=1 session=h:5f4dcc3b5aa7 lane=h:098f6bcd4621 branch=feat/x started=2026-10-08T12:00:00Z updated=2026-10-08T12:30:00Z stage=review assignee=claim -->';

/** The Praetor protocol's example comment, verbatim. */
const SEED_COMMENT = [
  MARKER,
  '**Praetor claim** - session `h:5f4dcc3b5aa7`, lane `h:098f6bcd4621`, branch `feat/x`',
  '',
  '- Stage: review',
  '- Started: 2026-10-08T12:00:00Z',
  '- Updated: 2026-10-08T12:30:00Z',
  '- Assignee: added by this claim; release removes it',
  '- Note: round one',
].join('\n');

const NOW = new Date('2026-10-08T19:00:00.456Z');

/** A finalisation (docs/protocol.md §4) through the one edit of an existing body. */
const finaliseClaimBody = (body: string, marker: ClaimMarker, reason: string) =>
  editClaimBody(body, { marker, reason });
const RELEASED_MARKER =
  '<!-- praetor-claim v=1 session=h:5f4dcc3b5aa7 lane=h:098f6bcd4621 branch=feat/x started=2026-10-08T12:00:00Z updated=2026-10-08T19:00:00Z stage=released assignee=claim outcome=abandoned -->';

describe('renderClaimComment', () => {
  it('writes the Praetor example comment exactly', () => {
    expect(renderClaimComment(CLAIM, { note: 'round one' })).toBe(SEED_COMMENT);
  });

  it('starts with the marker, which reads back as the claim (docs/protocol.md §1)', () => {
    expect(parseClaimMarker(renderClaimComment(CLAIM))).toEqual(CLAIM);
  });

  it.each<[string, ClaimMarker['assignee'], string | undefined]>([
    ['claim', 'claim', '- Assignee: added by this claim; release removes it'],
    ['before', 'before', '- Assignee: already assigned before this claim; release leaves it'],
    ['absent', undefined, undefined],
  ])('writes assignee %s in words', (_name, assignee, line) => {
    const { assignee: _, ...rest } = CLAIM;
    const text = renderClaimComment(assignee === undefined ? rest : { ...rest, assignee });
    const assigneeLines = text.split('\n').filter((l) => l.startsWith('- Assignee:'));
    expect(assigneeLines).toEqual(line === undefined ? [] : [line]);
  });

  it('writes a takeover line naming the replaced comment and its session', () => {
    const text = renderClaimComment(CLAIM, {
      takeover: { commentId: 4242, session: 'h:aaaaaaaaaaaa' },
    });
    expect(text.split('\n').at(-1)).toBe(
      '- Takeover: replaces claim comment 4242 (session h:aaaaaaaaaaaa)',
    );
  });

  it('writes the outcome of a released claim last, after note and takeover', () => {
    const text = renderClaimComment(
      { ...CLAIM, stage: 'released', outcome: 'handed-over' },
      { note: 'n', takeover: { commentId: 1, session: 's' } },
    );
    expect(text.split('\n').slice(3)).toEqual([
      '- Stage: released',
      '- Started: 2026-10-08T12:00:00Z',
      '- Updated: 2026-10-08T12:30:00Z',
      '- Assignee: added by this claim; release removes it',
      '- Note: n',
      '- Takeover: replaces claim comment 1 (session s)',
      '- Outcome: handed-over',
    ]);
  });

  it.each([
    ['newlines', 'first\nsecond', 'first second'],
    ['a forged line', 'ok\n- Stage: released', 'ok - Stage: released'],
    ['runs of whitespace', '  a \t\r\n  b  ', 'a b'],
  ])('folds %s of a note into one line', (_name, note, folded) => {
    const text = renderClaimComment(CLAIM, { note });
    expect(text.split('\n').at(-1)).toBe(`- Note: ${folded}`);
  });

  it.each([
    [`${MAX_NOTE_CHARS} characters`, 'n'.repeat(MAX_NOTE_CHARS), true],
    [`${MAX_NOTE_CHARS} characters after folding`, `${'n '.repeat(140)}\n\n`, true],
    [`${MAX_NOTE_CHARS + 1} characters`, 'n'.repeat(MAX_NOTE_CHARS + 1), false],
  ])('a note of %s is written=%s (longer is refused, not cut)', (_name, note, ok) => {
    const render = () => renderClaimComment(CLAIM, { note });
    if (ok) expect(render()).toContain('- Note: n');
    else expect(render).toThrow(/at most 280/);
  });

  it.each([
    ['a zero comment id', { commentId: 0, session: 's' }, /positive integer/],
    ['a fractional comment id', { commentId: 1.5, session: 's' }, /positive integer/],
    ['a session with a newline', { commentId: 1, session: 's\n- Stage: x' }, /claim identity/],
    ['a session with markup', { commentId: 1, session: '`x`' }, /claim identity/],
  ])('refuses a takeover with %s', (_name, takeover, message) => {
    expect(() => renderClaimComment(CLAIM, { takeover })).toThrow(message);
  });

  it('refuses a claim its marker could not carry', () => {
    expect(() => renderClaimComment({ ...CLAIM, outcome: 'landed' })).toThrow(/released/);
  });
});

describe('releasedClaim (docs/protocol.md §4 finalisation)', () => {
  it('sets stage released, the outcome and updated=now, keeping every other key', () => {
    expect(releasedClaim(CLAIM, 'abandoned', NOW)).toEqual({
      ...CLAIM,
      stage: 'released',
      outcome: 'abandoned',
      updated: NOW,
    });
  });

  it('replaces the outcome of an already released claim', () => {
    const once = releasedClaim(CLAIM, 'abandoned', NOW);
    expect(releasedClaim(once, 'landed', NOW).outcome).toBe('landed');
  });

  it('leaves the claim it was given unchanged', () => {
    const before = { ...CLAIM };
    releasedClaim(CLAIM, 'landed', NOW);
    expect(CLAIM).toEqual(before);
  });
});

describe('editClaimBody finalising (docs/protocol.md §1, §4)', () => {
  const finalised = releasedClaim(CLAIM, 'abandoned', NOW);
  const reason = 'stale since 2026-10-08T18:30:00Z';

  it('rewrites the marker and the stage line, and appends outcome and reason', () => {
    expect(finaliseClaimBody(SEED_COMMENT, finalised, reason)).toBe(
      [
        RELEASED_MARKER,
        '**Praetor claim** - session `h:5f4dcc3b5aa7`, lane `h:098f6bcd4621`, branch `feat/x`',
        '',
        '- Stage: released',
        '- Started: 2026-10-08T12:00:00Z',
        '- Updated: 2026-10-08T12:30:00Z',
        '- Assignee: added by this claim; release removes it',
        '- Note: round one',
        '- Outcome: abandoned',
        `- Reason: ${reason}`,
      ].join('\n'),
    );
  });

  it('writes a marker that reads back as the finalised claim', () => {
    expect(parseClaimMarker(finaliseClaimBody(SEED_COMMENT, finalised, reason))).toEqual({
      ...finalised,
      updated: new Date('2026-10-08T19:00:00Z'),
    });
  });

  it('gives the same body when a finalised body is finalised again', () => {
    const once = finaliseClaimBody(SEED_COMMENT, finalised, reason);
    expect(finaliseClaimBody(once, finalised, reason)).toBe(once);
  });

  it('replaces, not repeats, the outcome and reason of an earlier finalisation', () => {
    const once = finaliseClaimBody(SEED_COMMENT, finalised, 'first');
    const twice = finaliseClaimBody(once, releasedClaim(CLAIM, 'landed', NOW), 'second');
    const lines = twice.split('\n');
    expect(lines.filter((l) => l.startsWith('- Outcome:'))).toEqual(['- Outcome: landed']);
    expect(lines.filter((l) => l.startsWith('- Reason:'))).toEqual(['- Reason: second']);
    expect(lines.slice(-2)).toEqual(['- Outcome: landed', '- Reason: second']);
  });

  it('moves an outcome line written by the client to the end, once', () => {
    const released = renderClaimComment(releasedClaim(CLAIM, 'landed', CLAIM.updated));
    const lines = finaliseClaimBody(released, finalised, reason).split('\n');
    expect(lines.filter((l) => l.startsWith('- Outcome:'))).toEqual(['- Outcome: abandoned']);
    expect(lines.at(-2)).toBe('- Outcome: abandoned');
  });

  it.each([
    ['the marker alone', MARKER],
    ['the marker and a newline', `${MARKER}\n`],
    ['the marker and blank lines', `${MARKER}\n\n  \n`],
  ])('appends outcome and reason right after %s', (_name, body) => {
    expect(finaliseClaimBody(body, finalised, reason)).toBe(
      [RELEASED_MARKER, '- Outcome: abandoned', `- Reason: ${reason}`].join('\n'),
    );
  });

  it('keeps \\r\\n line endings', () => {
    const body = SEED_COMMENT.replaceAll('\n', '\r\n');
    const result = finaliseClaimBody(body, finalised, reason);
    expect(result).toBe(
      finaliseClaimBody(SEED_COMMENT, finalised, reason).replaceAll('\n', '\r\n'),
    );
    expect(parseClaimMarker(result)?.stage).toBe('released');
  });

  it('rewrites only the first stage line', () => {
    const body = `${MARKER}\n- Stage: review\n\nquoted:\n- Stage: blocked`;
    expect(finaliseClaimBody(body, finalised, reason).split('\n').slice(1, 5)).toEqual([
      '- Stage: released',
      '',
      'quoted:',
      '- Stage: blocked',
    ]);
  });

  it('adds no stage line to human text that has none', () => {
    const body = `${MARKER}\nworking on it`;
    expect(finaliseClaimBody(body, finalised, reason)).toBe(
      [RELEASED_MARKER, 'working on it', '- Outcome: abandoned', `- Reason: ${reason}`].join('\n'),
    );
  });

  it('folds a reason onto one line', () => {
    const result = finaliseClaimBody(MARKER, finalised, 'held by\ncomment 7\n- Stage: x');
    expect(result.split('\n').at(-1)).toBe('- Reason: held by comment 7 - Stage: x');
  });

  it.each<[string, ClaimMarker]>([
    ['a claim that is not released', { ...CLAIM }],
    ['a released claim without an outcome', { ...CLAIM, stage: 'released' }],
  ])('refuses %s', (_name, claim) => {
    expect(() => finaliseClaimBody(SEED_COMMENT, claim, reason)).toThrow(/released claim/);
  });
});

describe('the human text is never read for state (docs/protocol.md §1)', () => {
  it('reads the stage from the marker when the human text says otherwise', () => {
    const body = SEED_COMMENT.replace('- Stage: review', '- Stage: released\n- Outcome: landed');
    expect(parseClaimMarker(body)).toEqual(CLAIM);
  });
});

describe('foldText', () => {
  it.each([
    ['a\nb', 'a b'],
    ['  a  ', 'a'],
    ['a\r\n\tb', 'a b'],
    ['', ''],
  ])('folds %j into %j', (text, folded) => {
    expect(foldText(text)).toBe(folded);
  });
});
