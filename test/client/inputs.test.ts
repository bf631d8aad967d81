import { describe, expect, it } from 'vitest';
import { staleAfterMs } from '../../src/client/cli/validate-input.js';
import { parseBrief } from '../../src/client/commands/check/parse-brief.js';
import { parseIssueRef, parseRepoName } from '../../src/client/core/issue-ref.js';
import { apiUrl, ghHostOf } from '../../src/client/io/api-url.js';

describe('issue references', () => {
  it.each([
    ['acme/widgets#7', { owner: 'acme', repo: 'widgets', number: 7 }],
    ['a-b/c.d_e-f#1234', { owner: 'a-b', repo: 'c.d_e-f', number: 1234 }],
  ])('%s is read', (text, ref) => {
    expect(parseIssueRef(text)).toEqual(ref);
  });

  it.each([
    'widgets#7',
    'acme/widgets#0',
    'acme/widgets#07',
    'acme/widgets#',
    'acme/widgets#x',
    '#7',
    'acme/widgets',
    ' acme/widgets#7',
    'acme/wid gets#7',
    'acme/..#1',
    'acme/widgets#99999999999999999',
  ])('%j is refused as a usage error', (text) => {
    expect(() => parseIssueRef(text)).toThrow(expect.objectContaining({ kind: 'usage' }));
  });

  it('a repository name is owner/name', () => {
    expect(parseRepoName('acme/widgets')).toEqual({ owner: 'acme', repo: 'widgets' });
    expect(() => parseRepoName('acme')).toThrow(expect.objectContaining({ kind: 'usage' }));
  });
});

describe('brief fields', () => {
  it('reads column-0 lowercase issue: and session: lines, once per issue', () => {
    const brief = 'Do it.\nissue: acme/a#1, acme/b#2\nissue: acme/a#1\nsession: unit7\n';
    expect(parseBrief(brief)).toEqual({
      issues: [
        { owner: 'acme', repo: 'a', number: 1 },
        { owner: 'acme', repo: 'b', number: 2 },
      ],
      session: 'unit7',
    });
  });

  it('ignores a session line when no issue is named, even a malformed one', () => {
    expect(parseBrief('session: -not valid-\n')).toEqual({ issues: [], session: null });
  });

  it('an issue without session reads as session null', () => {
    expect(parseBrief('issue: acme/a#1')).toMatchObject({ session: null });
  });
});

describe('settings', () => {
  it('GITHUB_API_URL selects GitHub Enterprise; the default is api.github.com', () => {
    expect(apiUrl({})).toBe('https://api.github.com');
    expect(apiUrl({ GITHUB_API_URL: 'https://ghe.example.com/api/v3/' })).toBe(
      'https://ghe.example.com/api/v3',
    );
    expect(() => apiUrl({ GITHUB_API_URL: 'ftp://x' })).toThrow(
      expect.objectContaining({ kind: 'setup' }),
    );
    expect(ghHostOf('https://api.github.com')).toBe('github.com');
    expect(ghHostOf('https://ghe.example.com/api/v3')).toBe('ghe.example.com');
  });

  it.each([
    [undefined, 6 * 3_600_000],
    ['10m', 600_000],
    ['720h', 720 * 3_600_000],
  ])('stale window %s is %d ms', (text, ms) => {
    expect(staleAfterMs(text)).toBe(ms);
  });

  it.each(['9m', '721h', '6', 'soon'])('stale window %s is a usage error', (text) => {
    expect(() => staleAfterMs(text)).toThrow(expect.objectContaining({ kind: 'usage' }));
  });
});
