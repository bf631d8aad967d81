/**
 * One grammar of `owner/repo` and `owner/repo#n` (GitHub's), read the same by every door: what
 * the client takes, the Action takes, and the other way round.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readActionEnv } from '../src/action/action-env.js';
import { parseRepoName as clientRepoName, parseIssueRef } from '../src/client/core/issue-ref.js';
import { formatIssueName, isRepoName, parseIssueName, parseRepoName } from '../src/repo-names.js';

const runner = {
  GITHUB_EVENT_NAME: 'issue_comment',
  GITHUB_EVENT_PATH: '/tmp/event.json',
  GITHUB_API_URL: 'https://api.github.com',
  'INPUT_GITHUB-TOKEN': 'ghs_workflowtoken0001',
};
const actionTakes = (name: string) => {
  try {
    return readActionEnv({ ...runner, GITHUB_REPOSITORY: name });
  } catch {
    return null;
  }
};
const clientTakes = (name: string) => {
  try {
    return clientRepoName(name);
  } catch {
    return null;
  }
};

const NAMES: readonly [string, boolean][] = [
  ['acme/widgets', true],
  ['a-b/c.d_e-f', true],
  // A managed user's login ends `_<shortcode>`.
  ['octo_acme/widgets', true],
  ['acme/...', true],
  ['acme/.github', true],
  ['acme/..', false],
  ['acme/.', false],
  ['-acme/widgets', false],
  ['acme', false],
  ['acme/wid gets', false],
  ['acme/widgets/extra', false],
  [`${'a'.repeat(40)}/widgets`, false],
  [`acme/${'w'.repeat(101)}`, false],
];

describe('repository names', () => {
  it.each(NAMES)('%j: every door agrees (%s)', (name, ok) => {
    expect(parseRepoName(name) !== null).toBe(ok);
    expect(clientTakes(name) !== null).toBe(ok);
    expect(actionTakes(name) !== null).toBe(ok);
    const [owner = '', ...rest] = name.split('/');
    // The API reads a path's two segments apart; a third `/` is a path of its own.
    if (rest.length === 1) expect(isRepoName(owner, rest[0] ?? '')).toBe(ok);
  });

  it('the Action splits the name as the client does', () => {
    expect(actionTakes('octo_acme/widgets')).toMatchObject({ owner: 'octo_acme', repo: 'widgets' });
    expect(clientTakes('octo_acme/widgets')).toEqual({ owner: 'octo_acme', repo: 'widgets' });
  });
});

describe('issue names', () => {
  it.each([
    ['acme/widgets#7', true],
    ['octo_acme/widgets#7', true],
    ['acme/widgets#0', false],
    ['acme/widgets#07', false],
    ['acme/..#1', false],
    ['acme/widgets#99999999999999999', false],
  ])('%j: the client agrees with the grammar (%s)', (text, ok) => {
    expect(parseIssueName(text) !== null).toBe(ok);
    if (ok) expect(parseIssueRef(text)).toEqual(parseIssueName(text));
    else expect(() => parseIssueRef(text)).toThrow(expect.objectContaining({ kind: 'usage' }));
  });

  it('reading a written name gives it back', () => {
    const owner = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/);
    const repo = fc
      .stringMatching(/^[A-Za-z0-9._-]{1,100}$/)
      .filter((r) => r !== '.' && r !== '..');
    const number = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
    fc.assert(
      fc.property(owner, repo, number, (o, r, n) => {
        const name = { owner: o, repo: r, number: n };
        expect(parseIssueName(formatIssueName(name))).toEqual(name);
      }),
    );
  });
});
