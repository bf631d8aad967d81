import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MARKER_PREFIX,
  MARKER_SUFFIX,
  parseClaimMarker,
  renderClaimMarker,
} from '../../src/claims/marker.js';
import type { ClaimMarker, Stage } from '../../src/claims/types.js';

/*
 * The marker reader against hostile input (docs/protocol.md §1 is an allow-list: anything else is no
 * claim). It must never throw, whatever the body; its answer may depend on the first line
 * only, however long the rest; control characters and near-misses are refused; and what it
 * accepts is a canonical claim that writes back and reads again the same.
 */

const identity = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._/:+@-]{0,40}$/);
const time = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2099-12-31T23:59:59Z'),
  noInvalidDate: true,
});
const stage = fc.constantFrom<Stage>(
  'claimed',
  'implementing',
  'review',
  'blocked',
  'queued',
  'landing',
  'fix-round-7',
);
const claim: fc.Arbitrary<ClaimMarker> = fc
  .record({
    session: identity,
    lane: identity,
    branch: identity,
    started: time,
    updated: time,
    stage,
    assignee: fc.constantFrom('claim', 'before', undefined),
  })
  .map(({ assignee, ...rest }) => ({ ...rest, ...(assignee ? { assignee } : {}) }) as ClaimMarker);
const markerLine = claim.map((c) => renderClaimMarker(c));

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators; not `\n`. */
const CONTROLS = [
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).filter((c) => c !== '\n'),
  '\u007f',
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)),
  '\u2028',
  '\u2029',
];
const control = fc.constantFrom(...CONTROLS);

/** Characters a near-miss is made of: look-alikes, separators, the grammar's own symbols. */
const nearMissChar = fc.oneof(
  control,
  fc.constantFrom(
    ' ',
    '  ',
    '=',
    '-',
    '>',
    '<',
    '!',
    '\u00a0',
    '\u200b',
    '\ufeff',
    '\u2010',
    '＝',
    'Ｚ',
    'é',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 2 }),
);

/** One edit of a line: insert, delete or replace at a position, or change a letter's case. */
interface Mutation {
  readonly kind: 'insert' | 'delete' | 'replace' | 'case';
  readonly at: number;
  readonly char: string;
}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('insert', 'delete', 'replace', 'case'),
  at: fc.nat(),
  char: nearMissChar,
});

function mutate(line: string, edits: readonly Mutation[]): string {
  let out = line;
  for (const edit of edits) {
    const at = out.length === 0 ? 0 : edit.at % out.length;
    switch (edit.kind) {
      case 'insert':
        out = out.slice(0, at) + edit.char + out.slice(at);
        break;
      case 'delete':
        out = out.slice(0, at) + out.slice(at + 1);
        break;
      case 'replace':
        out = out.slice(0, at) + edit.char + out.slice(at + 1);
        break;
      case 'case': {
        const ch = out.charAt(at);
        const flipped = ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();
        out = out.slice(0, at) + flipped + out.slice(at + 1);
        break;
      }
    }
  }
  return out;
}

/** A large body of hostile text: marker fragments, controls and prose, up to `max` chars. */
function hostileText(max: number): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(
        fc.oneof(
          fc.constantFrom(
            MARKER_PREFIX,
            MARKER_SUFFIX,
            'v=1 ',
            'stage=claimed',
            '\r',
            '\n',
            '\r\n',
          ),
          control,
          fc.string({ unit: 'binary', maxLength: 50 }),
        ),
        { maxLength: 40 },
      ),
      fc.nat({ max }),
    )
    .map(([parts, size]) => {
      const seed = parts.join('') || 'x';
      return seed.repeat(Math.ceil(size / seed.length)).slice(0, size);
    });
}

describe('fuzz: the marker reader on hostile input', () => {
  it('never throws, on any text at all', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), hostileText(200_000)), (body) => {
        parseClaimMarker(body);
      }),
      { numRuns: 300 },
    );
  });

  it('answers from the first line only, however long and hostile the rest', () => {
    fc.assert(
      fc.property(
        fc.oneof(markerLine, fc.string({ unit: 'binary', maxLength: 1200 })),
        hostileText(1_000_000),
        (first, rest) => {
          const line = first.split('\n')[0]!;
          expect(parseClaimMarker(`${line}\n${rest}`)).toEqual(parseClaimMarker(line));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a marker with a control character anywhere (one trailing \\r excepted)', () => {
    fc.assert(
      fc.property(markerLine, fc.nat(), control, (line, position, ch) => {
        const at = position % (line.length + 1);
        const hostile = line.slice(0, at) + ch + line.slice(at);
        fc.pre(!(at === line.length && ch === '\r'));
        expect(parseClaimMarker(hostile)).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('accepts a near-miss only when it is itself a canonical claim: printable ASCII that reads back the same', () => {
    fc.assert(
      fc.property(markerLine, fc.array(mutation, { minLength: 1, maxLength: 3 }), (line, edits) => {
        const hostile = mutate(line, edits);
        const parsed = parseClaimMarker(hostile);
        if (parsed === null) return;
        const first = hostile.split('\n')[0]!.replace(/\r$/, '');
        expect(first).toMatch(/^[\x20-\x7e]+$/);
        expect(first.startsWith(MARKER_PREFIX) && first.endsWith(MARKER_SUFFIX)).toBe(true);
        expect(Buffer.byteLength(first)).toBeLessThanOrEqual(1024);
        expect(parseClaimMarker(renderClaimMarker(parsed))).toEqual(parsed);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a byte-order mark before it', (l: string) => `\ufeff${l}`],
    ['a leading space', (l: string) => ` ${l}`],
    ['a blank line before it', (l: string) => `\n${l}`],
    ['two trailing \\r', (l: string) => `${l}\r\r\nrest`],
    ['a NUL at the end', (l: string) => `${l}\u0000`],
    ['the line repeated without a newline', (l: string) => `${l}${l}`],
    ['a double space between keys', (l: string) => l.replace(' session=', '  session=')],
    ['an upper-case key', (l: string) => l.replace(' stage=', ' Stage=')],
    ['a tab for a space', (l: string) => l.replace(' lane=', '\tlane=')],
    ['a key twice', (l: string) => l.replace(' -->', ' stage=review -->')],
    ['v=2', (l: string) => l.replace('v=1', 'v=2')],
    ['outcome on a live stage', (l: string) => l.replace(' -->', ' outcome=landed -->')],
  ])('refuses a marker with %s', (_what, hostile) => {
    const line = renderClaimMarker({
      session: 's-1',
      lane: 'main',
      branch: 'fix/it',
      started: new Date('2026-01-01T00:00:00Z'),
      updated: new Date('2026-01-01T00:00:00Z'),
      stage: 'claimed',
    });
    expect(parseClaimMarker(line)).not.toBeNull();
    expect(parseClaimMarker(hostile(line))).toBeNull();
  });

  it('reads a marker line of exactly 1024 bytes and refuses one of 1025, even before 10 MB of text', () => {
    const base = renderClaimMarker({
      session: 's-1',
      lane: 'main',
      branch: 'fix/it',
      started: new Date('2026-01-01T00:00:00Z'),
      updated: new Date('2026-01-01T00:00:00Z'),
      stage: 'claimed',
    });
    // Fractional seconds have no length limit in RFC 3339: they pad the line to any size.
    const padded = (bytes: number) =>
      base.replace(
        'started=2026-01-01T00:00:00Z',
        `started=2026-01-01T00:00:00.${'0'.repeat(bytes - base.length - 1)}Z`,
      );
    const tail = `\n${'x'.repeat(10 * 1024 * 1024)}`;
    expect(Buffer.byteLength(padded(1024))).toBe(1024);
    expect(parseClaimMarker(padded(1024) + tail)).not.toBeNull();
    expect(parseClaimMarker(`${padded(1024)}\r${tail}`)).not.toBeNull();
    expect(parseClaimMarker(padded(1025) + tail)).toBeNull();
    expect(parseClaimMarker('x'.repeat(10 * 1024 * 1024))).toBeNull();
    expect(parseClaimMarker(MARKER_PREFIX.repeat(500_000))).toBeNull();
  });
});
