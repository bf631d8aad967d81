import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPathEntries,
  encodePath,
  overlaps,
  parsePathLine,
  pathCovers,
  renderPathLine,
} from '../../src/claims/paths.js';

/*
 * Property tests of the comparison rules of docs/protocol.md §10: entries compare after
 * percent-decoding and NFC, an entry covers itself and everything under it (its trailing `/`
 * or none), and an encoded `\`, `/` or control character is refused as its raw form is.
 */

/** Name pieces, some with an NFC and an NFD spelling, some plain, some to be encoded. */
const piece = fc.constantFrom(
  'a',
  'Z',
  '0',
  '.',
  '-',
  '_',
  '\u00e9',
  'e\u0301',
  '\u00c5',
  'A\u030a',
  '\u212b',
  '\u1e69',
  's\u0323\u0307',
  '\u65e5',
  '\u{1f600}',
  ' ',
  '%',
  '`',
);
/** A segment as people type it (any normal form), never `.` or `..`. */
const segment = fc
  .array(piece, { minLength: 1, maxLength: 6 })
  .map((pieces) => pieces.join(''))
  .filter((s) => s !== '.' && s !== '..' && Buffer.byteLength(s.normalize('NFC')) <= 255);
const pathOf = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

/** The entry for a path spelled in normal form `form`, hex in upper or lower case. */
function spell(path: string, form: 'NFC' | 'NFD', lower: boolean): string {
  const encoded = encodePathRaw(path.normalize(form));
  return lower ? encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()) : encoded;
}

/** Percent-encodes a path without normalising it, as a client of another normal form would. */
function encodePathRaw(path: string): string {
  return [...Buffer.from(path, 'utf8')]
    .map((b) =>
      /^[A-Za-z0-9._@+/-]$/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

function canonical(entry: string): string {
  const checked = checkPathEntries([entry]);
  if (!checked.ok) throw new Error(checked.problem);
  return checked.paths[0]!;
}

describe('entries compare after percent-decoding and NFC (docs/protocol.md §10)', () => {
  it('the NFC and NFD spellings of a path are one entry, and they overlap', () => {
    fc.assert(
      fc.property(pathOf, fc.boolean(), fc.boolean(), (path, dir, lower) => {
        const slash = dir ? '/' : '';
        const nfc = canonical(`${spell(path, 'NFC', false)}${slash}`);
        const nfd = canonical(`${spell(path, 'NFD', lower)}${slash}`);
        expect(nfd).toBe(nfc);
        expect(overlaps([nfd], [nfc])).toEqual([[nfc, nfc]]);
        expect(checkPathEntries([spell(path, 'NFC', false), spell(path, 'NFD', false)])).toEqual({
          ok: false,
          problem: expect.stringContaining('listed twice'),
        });
      }),
      { numRuns: 500 },
    );
  });

  it('an entry covers the file GitHub lists in either normal form', () => {
    fc.assert(
      fc.property(
        pathOf,
        segment,
        fc.constantFrom('NFC', 'NFD') as fc.Arbitrary<'NFC' | 'NFD'>,
        (dir, file, form) => {
          const entry = canonical(spell(dir, form === 'NFC' ? 'NFD' : 'NFC', false));
          expect(pathCovers(entry, `${dir}/${file}`.normalize(form))).toBe(true);
          expect(pathCovers(entry, dir.normalize(form))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('render then parse is the identity, whatever spelling the entries were given in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(pathOf, fc.boolean()), {
          minLength: 1,
          maxLength: 8,
          selector: ([p]) => p.normalize('NFC'),
        }),
        fc.constantFrom('NFC', 'NFD') as fc.Arbitrary<'NFC' | 'NFD'>,
        (paths, form) => {
          const given = paths.map(([p, dir]) => `${spell(p, form, false)}${dir ? '/' : ''}`);
          const checked = checkPathEntries(given);
          expect(checked.ok).toBe(true);
          if (!checked.ok) return;
          let text: string;
          try {
            text = renderPathLine(checked.paths);
          } catch {
            expect(Buffer.byteLength(checked.paths.join(','))).toBeGreaterThan(1024 - 32);
            return;
          }
          expect(parsePathLine(text)).toEqual({ kind: 'valid', paths: checked.paths });
          // Canonical entries are already canonical.
          expect(checkPathEntries(checked.paths)).toEqual(checked);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('an entry covers itself and everything under it (docs/protocol.md §10)', () => {
  it('a path, with or without its /, overlaps everything under it and nothing beside it', () => {
    fc.assert(
      fc.property(pathOf, fc.boolean(), pathOf, segment, (path, dir, below, extra) => {
        const entry = canonical(`${encodePath(path)}${dir ? '/' : ''}`);
        const under = canonical(encodePath(`${path}/${below}`));
        expect(overlaps([entry], [under])).toEqual([[entry, under]]);
        expect(overlaps([under], [entry])).toEqual([[under, entry]]);
        expect(pathCovers(entry, `${path}/${below}`)).toBe(true);
        // `docs` is no prefix of `docsx/a`: only whole segments count.
        const beside = canonical(encodePath(`${path}${extra}/${below}`));
        expect(overlaps([entry], [beside])).toEqual([]);
        expect(pathCovers(entry, `${path}${extra}/${below}`)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('an encoded character is refused like its raw form (docs/protocol.md §10)', () => {
  const control = fc
    .oneof(
      fc.integer({ min: 0, max: 0x1f }),
      fc.constant(0x7f),
      fc.integer({ min: 0x80, max: 0x9f }),
    )
    .map((code) => String.fromCodePoint(code));
  const forbidden = fc.oneof(fc.constant('\\'), fc.constant('/'), control);

  it('a \\, / or control character inside a segment is refused, encoded or raw', () => {
    fc.assert(
      fc.property(pathOf, fc.nat(), forbidden, fc.boolean(), (path, at, char, raw) => {
        const encoded = encodePath(path);
        const i = at % (encoded.length + 1);
        // A raw `/` is a separator, not a character of a segment: only its encoded form counts.
        const written = raw && char !== '/' ? char : encodePathRaw(char).replace('/', '%2F');
        const entry = `${encoded.slice(0, i)}${written}${encoded.slice(i)}`;
        // Inserted between two `%XX` halves it breaks an escape instead: refused all the same.
        expect(checkPathEntries([entry]).ok).toBe(false);
        expect(parsePathLine(`<!-- claim-paths v=1 paths=${entry} -->`).kind).toBe('invalid');
      }),
      { numRuns: 1000 },
    );
  });
});
