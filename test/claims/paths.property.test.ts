import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlaps, parsePathLine, renderPathLine } from '../../src/claims/paths.js';

/*
 * Property tests of the path line and the overlap rule (docs/protocol.md §10; the NFC and
 * trailing-`/` rules have their own in paths-normalise.property.test.ts):
 * - render then parse is the identity on canonical entries;
 * - on random and mutated lines, the parser accepts exactly when an independent oracle does;
 * - overlap is symmetric and agrees with a brute-force oracle over generated trees.
 *
 * The oracle is written unlike the parser on purpose: a whole-entry regex, decoding to a
 * Buffer (read as UTF-8, put in NFC), and byte comparisons on Buffers rather than on
 * canonical strings.
 */

// ---------------------------------------------------------------------------------------------
// The oracle

const ORACLE_LINE = /^<!-- claim-paths (\S+) (\S+) -->$/;
const ORACLE_ENTRY =
  /^(?:(?:[A-Za-z0-9._@+-]|%[0-9A-Fa-f]{2})+\/)*(?:(?:[A-Za-z0-9._@+-]|%[0-9A-Fa-f]{2})+\/?)$/;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The decoded bytes of an entry, each segment read as UTF-8 and put in NFC, its trailing `/`
 * dropped (it only says "meant as a directory"), or null.
 */
function oracleEntry(entry: string): Buffer | null {
  if (!ORACLE_ENTRY.test(entry)) return null;
  const isDir = entry.endsWith('/');
  const segments = (isDir ? entry.slice(0, -1) : entry).split('/');
  const decoded: Buffer[] = [];
  for (const segment of segments) {
    const raw = Buffer.from(
      segment.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      ),
      'latin1',
    );
    let text: string;
    try {
      text = UTF8.decode(raw);
    } catch {
      return null;
    }
    if (/[/\\\p{Cc}]/u.test(text)) return null;
    const bytes = Buffer.from(text.normalize('NFC'), 'utf8');
    if (bytes.length < 1 || bytes.length > 255) return null;
    const plain = bytes.toString('latin1');
    if (plain === '.' || plain === '..') return null;
    decoded.push(bytes);
  }
  return Buffer.concat(decoded.flatMap((b, i) => (i === 0 ? [b] : [Buffer.from('/'), b])));
}

/** What the oracle makes of a line: the decoded entries, or null when it is refused. */
function oracleLine(raw: string): Buffer[] | null {
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (Buffer.byteLength(text) > 1024) return null;
  const m = ORACLE_LINE.exec(text);
  if (!m) return null;
  const tokens = [m[1]!, m[2]!];
  const v = tokens.filter((t) => t === 'v=1');
  const p = tokens.filter((t) => t.startsWith('paths='));
  if (v.length !== 1 || p.length !== 1) return null;
  const entries = p[0]!.slice('paths='.length).split(',');
  if (entries.length < 1 || entries.length > 20) return null;
  const out: Buffer[] = [];
  for (const entry of entries) {
    const bytes = oracleEntry(entry);
    if (bytes === null) return null;
    if (out.some((seen) => seen.equals(bytes))) return null;
    out.push(bytes);
  }
  return out;
}

/** Decodes a canonical entry the parser returned, for comparison with the oracle. */
function decodeCanonical(entry: string): Buffer {
  return decodeBytes(entry.endsWith('/') ? entry.slice(0, -1) : entry);
}

/** The bytes a canonical string spells, `/` included. */
function decodeBytes(entry: string): Buffer {
  return Buffer.from(
    entry.replace(/%([0-9A-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    ),
    'latin1',
  );
}

// ---------------------------------------------------------------------------------------------
// Generators

const plainChar = fc.constantFrom(...'abcXYZ019._@+-'.split(''));
/** Characters written encoded: spaces, markup, non-ASCII, combining marks, NFD pairs. */
const otherChar = fc.constantFrom(
  ' ',
  '*',
  '%',
  '`',
  '\u00e9',
  'e\u0301',
  '\u0301',
  'A\u030a',
  '\u212b',
  '\u65e5',
  '\u{1f600}',
  '\u00a0',
);
/** A segment in canonical form: NFC, plain bytes as themselves, every other byte `%XX`. */
const canonicalSegment = fc
  .array(fc.oneof({ weight: 4, arbitrary: plainChar }, { weight: 1, arbitrary: otherChar }), {
    minLength: 1,
    maxLength: 8,
  })
  .map((chars) => encodeSegment(chars.join('').normalize('NFC')))
  .filter((s) => s !== '.' && s !== '..');
const canonicalEntry = fc
  .tuple(fc.array(canonicalSegment, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([segments, dir]) => `${segments.join('/')}${dir ? '/' : ''}`);
/** Distinct entries: `a` and `a/` are one entry (docs/protocol.md §10). */
const canonicalEntries = fc.uniqueArray(canonicalEntry, {
  minLength: 1,
  maxLength: 20,
  selector: (e) => (e.endsWith('/') ? e.slice(0, -1) : e),
});

/** A segment's UTF-8 bytes, plain ones as themselves and the rest `%XX` uppercase. */
function encodeSegment(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /^[A-Za-z0-9._@+-]$/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

const LINE_ALPHABET = 'ab./,%2FAE0 =-_@+v1pths<>!\r\n*';
const noise = fc.string({ unit: fc.constantFrom(...LINE_ALPHABET.split('')), maxLength: 3 });

type Mutation = { kind: 'insert' | 'replace' | 'delete'; at: number; text: string };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('insert', 'replace', 'delete'),
  at: fc.nat(),
  text: noise,
});

function mutate(line: string, mutations: readonly Mutation[]): string {
  let out = line;
  for (const { kind, at, text } of mutations) {
    const i = out.length === 0 ? 0 : at % out.length;
    if (kind === 'insert') out = out.slice(0, i) + text + out.slice(i);
    else if (kind === 'replace') out = out.slice(0, i) + text + out.slice(i + 1);
    else out = out.slice(0, i) + out.slice(i + 1);
  }
  return out;
}

function agreesWithOracle(text: string): void {
  const parsed = parsePathLine(text);
  const oracle = oracleLine(text);
  if (oracle === null) {
    // Only lines that begin like a path line are "invalid"; others are no path line at all.
    expect(parsed.kind).not.toBe('valid');
  } else {
    expect(parsed.kind).toBe('valid');
    if (parsed.kind === 'valid') expect(parsed.paths.map(decodeCanonical)).toEqual(oracle);
  }
}

// ---------------------------------------------------------------------------------------------

describe('path line properties (docs/protocol.md §10)', () => {
  it('render then parse is the identity on canonical entries', () => {
    fc.assert(
      fc.property(canonicalEntries, (paths) => {
        let text: string;
        try {
          text = renderPathLine(paths);
        } catch {
          // Only the 1024-byte cap may refuse canonical, distinct entries.
          const bytes = Buffer.byteLength(`<!-- claim-paths v=1 paths=${paths.join(',')} -->`);
          expect(bytes).toBeGreaterThan(1024);
          return;
        }
        expect(parsePathLine(text)).toEqual({ kind: 'valid', paths });
      }),
      { numRuns: 500 },
    );
  });

  it('a random line is accepted exactly when every rule holds', () => {
    const randomLine = fc
      .tuple(
        fc.array(fc.string({ unit: fc.constantFrom(...'ab./%2FE0e,_'.split('')), maxLength: 12 }), {
          minLength: 0,
          maxLength: 4,
        }),
        fc.boolean(),
      )
      .map(([entries, swap]) => {
        const tokens = ['v=1', `paths=${entries.join(',')}`];
        if (swap) tokens.reverse();
        return `<!-- claim-paths ${tokens.join(' ')} -->`;
      });
    fc.assert(fc.property(randomLine, agreesWithOracle), { numRuns: 2000 });
  });

  it('a mutated valid line is accepted exactly when every rule still holds', () => {
    const mutated = fc
      .tuple(
        canonicalEntries.filter((p) => p.join(',').length < 900),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
      )
      .map(([paths, mutations]) => mutate(renderPathLine(paths), mutations));
    fc.assert(fc.property(mutated, agreesWithOracle), { numRuns: 2000 });
  });

  it('an entry repeated, or its encoded twin, is never accepted', () => {
    fc.assert(
      fc.property(canonicalEntries, fc.nat(), (paths, pick) => {
        const twin = paths[pick % paths.length]!.replace(
          /[a-z]/,
          (c) => `%${c.charCodeAt(0).toString(16)}`,
        );
        expect(
          parsePathLine(`<!-- claim-paths v=1 paths=${[...paths, twin].join(',')} -->`).kind,
        ).not.toBe('valid');
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Overlap against a brute-force oracle over a generated tree

/**
 * Whether an entry (decoded bytes, trailing `/` dropped) covers a path: itself, or anything
 * under it, as a directory whether or not it was written with its `/`.
 */
function covers(entry: Buffer, path: Buffer): boolean {
  if (entry.equals(path)) return true;
  return (
    path.length > entry.length &&
    path[entry.length] === 0x2f &&
    path.subarray(0, entry.length).equals(entry)
  );
}

/**
 * Two entries overlap when some path of the tree is covered by both. The tree holds every
 * entry itself and one file below each entry, which is enough to witness any overlap.
 */
function bruteOverlaps(a: readonly string[], b: readonly string[]): Array<[string, string]> {
  const tree = [...a, ...b].flatMap((e) => {
    const bytes = decodeCanonical(e);
    return [bytes, Buffer.concat([bytes, Buffer.from('/~leaf')])];
  });
  const pairs: Array<[string, string]> = [];
  for (const x of a) {
    for (const y of b) {
      const dx = decodeCanonical(x);
      const dy = decodeCanonical(y);
      if (tree.some((p) => covers(dx, p) && covers(dy, p))) pairs.push([x, y]);
    }
  }
  return pairs;
}

/** Entries drawn from one small tree, so that overlaps are frequent. */
const treeSegment = fc.constantFrom('src', 'docs', 'a', 'a.ts', 'b', '%C3%A9', 'src.ts');
const treeEntry = fc
  .tuple(fc.array(treeSegment, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([segments, dir]) => `${segments.join('/')}${dir ? '/' : ''}`);
const treeEntries = fc.uniqueArray(treeEntry, {
  minLength: 1,
  maxLength: 20,
  selector: (e) => (e.endsWith('/') ? e.slice(0, -1) : e),
});

describe('overlap properties (docs/protocol.md §10)', () => {
  it('overlap agrees with a brute-force oracle over generated trees', () => {
    fc.assert(
      fc.property(treeEntries, treeEntries, (a, b) => {
        expect(overlaps(a, b)).toEqual(bruteOverlaps(a, b));
      }),
      { numRuns: 1000 },
    );
  });

  it('overlap is symmetric', () => {
    fc.assert(
      fc.property(treeEntries, treeEntries, (a, b) => {
        const swapped = overlaps(b, a)
          .map(([x, y]) => `${y}|${x}`)
          .sort();
        expect(
          overlaps(a, b)
            .map(([x, y]) => `${x}|${y}`)
            .sort(),
        ).toEqual(swapped);
      }),
      { numRuns: 1000 },
    );
  });
});
