import { describe, expect, it } from 'vitest';
import {
  checkPathEntries,
  overlaps,
  parsePathLine,
  pathCovers,
  pathMatcher,
} from '../../src/claims/paths.js';

/*
 * The path rules of docs/protocol.md §10 as a user meets them: an entry covers itself and
 * everything under it (a trailing `/` only says it is meant as a directory); entries compare
 * after percent-decoding and Unicode NFC; case-sensitive, as Git is; `%5C`, `%2F` and control
 * characters are refused, encoded or raw.
 */

const line = (paths: string) => `<!-- claim-paths v=1 paths=${paths} -->`;

/** `café.md` with a precomposed é (NFC) and with e + combining acute (NFD). */
const NFC = 'caf%C3%A9.md';
const NFD = 'cafe%CC%81.md';

/** Entries as a path line or the API gives them to the overlap check: canonical. */
function canonical(...entries: string[]): readonly string[] {
  const checked = checkPathEntries(entries);
  if (!checked.ok) throw new Error(checked.problem);
  return checked.paths;
}

describe('an entry covers itself and everything under it', () => {
  it.each([
    ['a directory written without its /', ['docs'], ['docs/guide.md'], [['docs', 'docs/guide.md']]],
    [
      'a held file under a claimed directory without /',
      ['docs/guide.md'],
      ['docs'],
      [['docs/guide.md', 'docs']],
    ],
    ['a directory with and without its /', ['docs'], ['docs/'], [['docs', 'docs/']]],
    [
      'a deep file under a bare directory',
      ['src'],
      ['src/queue/retry.ts'],
      [['src', 'src/queue/retry.ts']],
    ],
    ['a name that merely starts the same', ['docs'], ['docsx/a'], []],
    ['a file that merely starts the same', ['docs'], ['docs.md'], []],
    ['a directory that merely starts the same', ['docs/'], ['docsx/'], []],
  ] as const)('%s', (_, a, b, pairs) => {
    expect(overlaps(a, b)).toEqual(pairs);
    expect(pathMatcher(a).touches(b)).toBe(pairs.length > 0);
    expect(pathMatcher(b).touches(a)).toBe(pairs.length > 0);
  });

  it.each([
    ['a file under a bare directory', 'docs', 'docs/guide.md', true],
    ['the bare directory itself', 'docs', 'docs', true],
    ['a file beside it', 'docs', 'docsx/a', false],
    ['a file with the same start', 'docs', 'docs.md', false],
  ])('the guard: %s', (_, entry, file, covered) => {
    expect(pathCovers(entry, file)).toBe(covered);
  });
});

describe('entries compare after percent-decoding and NFC', () => {
  it('an NFD entry and an NFC entry overlap', () => {
    expect(overlaps(canonical(NFD), canonical(NFC))).toEqual([[NFC, NFC]]);
    expect(pathMatcher(canonical(`docs/${NFD}`)).touches(canonical('docs/'))).toBe(true);
  });

  it('an NFD entry is read in its NFC form', () => {
    expect(parsePathLine(line(NFD))).toEqual({ kind: 'valid', paths: [NFC] });
    expect(checkPathEntries([`docs/${NFD}`])).toEqual({ ok: true, paths: [`docs/${NFC}`] });
  });

  it('an NFD directory covers a file GitHub lists in NFC, and the other way round', () => {
    const [nfd] = canonical('lib/cafe%CC%81/');
    expect(pathCovers(nfd!, 'lib/caf\u00e9/a.ts')).toBe(true);
    expect(pathCovers('lib/caf%C3%A9/', 'lib/cafe\u0301/a.ts')).toBe(true);
    expect(pathCovers('lib/caf%C3%A9/', 'lib/cafe/a.ts')).toBe(false);
  });

  it('an entry twice after decoding and NFC is a duplicate', () => {
    expect(parsePathLine(line(`${NFC},${NFD}`))).toEqual({
      kind: 'invalid',
      problem: `path "${NFD}" is listed twice`,
    });
    expect(checkPathEntries(['docs', 'docs/'])).toEqual({
      ok: false,
      problem: 'path "docs/" is listed twice',
    });
  });

  it('case counts, as in Git', () => {
    expect(overlaps(['Docs'], ['docs/a.md'])).toEqual([]);
    expect(checkPathEntries(['README.md', 'readme.md']).ok).toBe(true);
    expect(pathCovers('docs', 'DOCS/a.md')).toBe(false);
  });
});

describe('an encoded character is refused like its raw form', () => {
  it.each([
    ['an encoded backslash', 'src%5Ca.ts', '\\'],
    ['an encoded backslash, lowercase hex', 'src%5ca.ts', '\\'],
    ['a raw backslash', 'src\\a.ts', '\\'],
    ['an encoded /', 'src%2Fa.ts', '%2F'],
    ['an encoded NUL', 'a%00.ts', 'control character'],
    ['an encoded newline', 'a%0A.ts', 'control character'],
    ['an encoded tab', 'a%09.ts', 'control character'],
    ['an encoded DEL', 'a%7F.ts', 'control character'],
    ['an encoded C1 control', 'a%C2%85.ts', 'control character'],
    ['a raw newline', 'a\n.ts', 'control character'],
    ['a raw escape', 'a\u001b.ts', 'control character'],
    ['bytes that are not UTF-8', 'a%FF.ts', 'UTF-8'],
  ])('%s', (_, entry, problem) => {
    const checked = checkPathEntries([entry]);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem).toContain(problem);
  });

  it('a refused entry gives a path line no paths', () => {
    expect(parsePathLine(line('docs/,src%5Ca.ts')).kind).toBe('invalid');
  });
});
