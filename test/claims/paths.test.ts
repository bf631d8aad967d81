import { describe, expect, it } from 'vitest';
import {
  checkPathEntries,
  encodePath,
  overlaps,
  parsePathLine,
  pathCovers,
  pathLineOf,
  renderPathLine,
} from '../../src/claims/paths.js';

/* The path line and the overlap rule, as docs/protocol.md §10 states them. */

const line = (paths: string) => `<!-- claim-paths v=1 paths=${paths} -->`;

describe('reading a path line (docs/protocol.md §10)', () => {
  it.each([
    ['one file', line('src/a.ts'), ['src/a.ts']],
    [
      'files and a directory',
      line('src/queue/retry.ts,src/queue/retry.test.ts,docs/'),
      ['src/queue/retry.ts', 'src/queue/retry.test.ts', 'docs/'],
    ],
    ['keys in either order', '<!-- claim-paths paths=a.ts v=1 -->', ['a.ts']],
    ['one trailing \\r dropped', `${line('a.ts')}\r`, ['a.ts']],
    ['every plain character', line('A-Za-z0-9._@+-'), ['A-Za-z0-9._@+-']],
    ['a percent-encoded space', line('docs/my%20file.md'), ['docs/my%20file.md']],
    ['lowercase hex, written back uppercase', line('caf%c3%a9.md'), ['caf%C3%A9.md']],
    ['an encoded plain byte decodes to it', line('%41.ts'), ['A.ts']],
    [
      'dots inside a name',
      line('.github/claims.yml,...,a..b'),
      ['.github/claims.yml', '...', 'a..b'],
    ],
    [
      'twenty entries',
      line(Array.from({ length: 20 }, (_, i) => `f${i}`).join(',')),
      Array.from({ length: 20 }, (_, i) => `f${i}`),
    ],
    ['a segment of 255 bytes', line('a'.repeat(255)), ['a'.repeat(255)]],
  ])('accepts %s', (_, text, paths) => {
    expect(parsePathLine(text)).toEqual({ kind: 'valid', paths });
  });

  it.each([
    ['no entries', '<!-- claim-paths v=1 paths= -->'],
    ['no paths key', '<!-- claim-paths v=1 -->'],
    ['no version', '<!-- claim-paths paths=a.ts -->'],
    ['version 2', '<!-- claim-paths v=2 paths=a.ts -->'],
    ['an unknown key', '<!-- claim-paths v=1 paths=a.ts x=1 -->'],
    ['a key twice', '<!-- claim-paths v=1 v=1 paths=a.ts -->'],
    ['a double space', '<!-- claim-paths v=1  paths=a.ts -->'],
    ['no closing', '<!-- claim-paths v=1 paths=a.ts'],
    ['an empty entry', line('a.ts,,b.ts')],
    ['a trailing comma', line('a.ts,')],
    ['a leading /', line('/etc/passwd')],
    ['an empty segment', line('src//a.ts')],
    ['a . segment', line('src/./a.ts')],
    ['a .. segment', line('../a.ts')],
    ['a .. segment written encoded', line('src/%2E%2E/a.ts')],
    ['a bare /', line('/')],
    ['an encoded /', line('src%2Fa.ts')],
    ['an encoded NUL', line('a%00.ts')],
    ['a raw space', '<!-- claim-paths v=1 paths=my file -->'],
    ['a raw non-ASCII character', line('café.md')],
    ['a character that must be encoded', line('a*.ts')],
    ['a broken escape', line('a%2.ts')],
    ['an entry twice', line('a.ts,b.ts,a.ts')],
    ['an entry twice after decoding', line('A.ts,%41.ts')],
    ['an entry twice, once with its trailing /', line('src,src/')],
    ['21 entries', line(Array.from({ length: 21 }, (_, i) => `f${i}`).join(','))],
    ['a segment of 256 bytes', line('a'.repeat(256))],
    ['a segment of 256 bytes, encoded', line('%C3%A9'.repeat(128))],
    [
      'more than 1024 bytes',
      line(Array.from({ length: 5 }, (_, i) => `${i}${'a'.repeat(250)}`).join(',')),
    ],
  ])('refuses %s', (_, text) => {
    expect(parsePathLine(text).kind).toBe('invalid');
  });

  it('a line that is not a path line is no path line, not an invalid one', () => {
    expect(parsePathLine('**Praetor claim** - session `s`')).toEqual({ kind: 'none' });
    expect(parsePathLine('<!-- claim-path v=1 paths=a -->')).toEqual({ kind: 'none' });
  });

  it('names the rule an invalid line breaks', () => {
    expect(parsePathLine(line('a.ts,a.ts'))).toEqual({
      kind: 'invalid',
      problem: 'path "a.ts" is listed twice',
    });
  });
});

describe('the path line of a claim comment is its second line', () => {
  const marker =
    '<!-- praetor-claim v=1 session=s lane=l branch=b started=2026-01-01T00:00:00Z updated=2026-01-01T00:00:00Z stage=claimed -->';

  it.each([
    ['a second line', `${marker}\n${line('a.ts')}\nhuman text`, { kind: 'valid', paths: ['a.ts'] }],
    [
      'CRLF line ends',
      `${marker}\r\n${line('a.ts')}\r\nhuman text`,
      { kind: 'valid', paths: ['a.ts'] },
    ],
    ['a body of one line', marker, { kind: 'none' }],
    ['an ordinary second line', `${marker}\n**Praetor claim**`, { kind: 'none' }],
    ['a path line on the third line', `${marker}\n\n${line('a.ts')}`, { kind: 'none' }],
    ['a broken path line', `${marker}\n${line('../a.ts')}`, { kind: 'invalid' }],
    [
      'a second line too long to be one',
      `${marker}\n${line('a'.repeat(2000))}`,
      { kind: 'invalid' },
    ],
  ])('%s', (_, body, expected) => {
    expect(pathLineOf(body)).toMatchObject(expected);
  });
});

describe('writing a path line', () => {
  it('writes the line readers accept, entries canonical', () => {
    expect(renderPathLine(['src/a.ts', 'docs/', 'my%20file'])).toBe(
      line('src/a.ts,docs/,my%20file'),
    );
    expect(renderPathLine(['%41.ts'])).toBe(line('A.ts'));
  });

  it.each([
    ['no entries', []],
    ['a bad entry', ['../a.ts']],
    ['an entry twice', ['a', 'a']],
    ['a line over 1024 bytes', Array.from({ length: 5 }, (_, i) => `${i}${'a'.repeat(250)}`)],
  ])('refuses %s', (_, paths) => {
    expect(() => renderPathLine(paths)).toThrow(/cannot write the path line/);
  });

  it('encodes a repository path for a line', () => {
    expect(encodePath('docs/my file.md')).toBe('docs/my%20file.md');
    expect(encodePath('src/café/')).toBe('src/caf%C3%A9/');
    expect(checkPathEntries([encodePath('docs/my file.md')])).toEqual({
      ok: true,
      paths: ['docs/my%20file.md'],
    });
  });
});

describe('overlap between two claims (docs/protocol.md §10)', () => {
  it.each([
    ['the same file', ['src/a.ts'], ['src/a.ts'], [['src/a.ts', 'src/a.ts']]],
    ['a file under a directory', ['src/'], ['src/queue/a.ts'], [['src/', 'src/queue/a.ts']]],
    ['a directory under a directory', ['src/queue/'], ['src/'], [['src/queue/', 'src/']]],
    ['the same directory', ['docs/'], ['docs/'], [['docs/', 'docs/']]],
    ['different files', ['src/a.ts'], ['src/b.ts'], []],
    // An entry covers everything under it, its trailing / or none (§10).
    ['an entry without / over a file under it', ['src'], ['src/a.ts'], [['src', 'src/a.ts']]],
    ['one path written with and without /', ['src/'], ['src'], [['src/', 'src']]],
    ['a name that merely starts the same', ['src/a'], ['src/ab'], []],
    ['a directory that merely starts the same', ['src/a/'], ['src/ab/c.ts'], []],
    [
      'several pairs',
      ['src/', 'README.md'],
      ['src/a.ts', 'docs/', 'README.md'],
      [
        ['src/', 'src/a.ts'],
        ['README.md', 'README.md'],
      ],
    ],
  ])('%s', (_, a, b, pairs) => {
    expect(overlaps(a, b)).toEqual(pairs);
  });

  it.each([
    ['the file itself', 'src/a.ts', 'src/a.ts', true],
    ['a file under the directory', 'src/', 'src/x/y.ts', true],
    ['a file with a space under an encoded directory', 'my%20docs/', 'my docs/a.md', true],
    ['another file', 'src/a.ts', 'src/a.tsx', false],
    ['a file beside the directory', 'src/', 'srcs/a.ts', false],
  ])('a changed file is covered by an entry: %s', (_, entry, file, covered) => {
    expect(pathCovers(entry, file)).toBe(covered);
  });
});
