/**
 * Path claims from the client (docs/protocol.md §10): `claim --paths` writes the path line as
 * the comment's second line with the core's renderer; a bad entry is the input error with
 * nothing written, in both modes; `paths check` and the MCP tools.
 */
import { describe, expect, it } from 'vitest';
import { pathLineOf } from '../../src/claims/paths.js';
import { claimArgs, issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();

describe('claim --paths, direct mode', () => {
  it('writes the path line as the second line, canonical, and reports the paths', async () => {
    const h = await world();
    const ref = h.issue();
    const { code, stdout } = await h.cli([
      ...claimArgs(ref, 'unit7', 'src/a.ts,docs/,my%20file.md'),
      '--json',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.claim.paths).toEqual(['src/a.ts', 'docs/', 'my%20file.md']);
    expect(json.message).toContain('paths src/a.ts,docs/,my%20file.md');
    const [comment] = h.fake.comments(REPO, issueNumber(ref));
    const lines = (comment!.body ?? '').split('\n');
    expect(lines[1]).toBe('<!-- claim-paths v=1 paths=src/a.ts,docs/,my%20file.md -->');
    expect(pathLineOf(comment!.body ?? '')).toEqual({
      kind: 'valid',
      paths: ['src/a.ts', 'docs/', 'my%20file.md'],
    });
    expect(h.marker(comment!.id)).toMatchObject({ stage: 'claimed' });
  });

  it.each([
    ['../etc/passwd', 'segment'],
    ['/abs/path', 'path'],
    ['src/a.ts,src/a.ts', 'listed twice'],
    ['', 'path'],
    [Array.from({ length: 21 }, (_, i) => `f${i}`).join(','), '1..20 entries'],
  ])('a bad entry %j is the input error (exit 2) and writes nothing', async (paths, problem) => {
    const h = await world();
    const ref = h.issue();
    const { code, stderr } = await h.cli(claimArgs(ref, 'unit7', paths));
    expect(code).toBe(2);
    expect(stderr).toContain(problem);
    expect(stderr).toContain('nothing was written');
    expect(h.fake.writes()).toEqual([]);
  });
});

describe('claim --paths, API mode', () => {
  it('a bad entry is refused before the app is asked (exit 2), nothing written', async () => {
    const h = await world({ app: true });
    const ref = h.issue();
    await h.app!.settle();
    const before = h.fake.requests.length;
    const { code, stderr } = await h.cli(claimArgs(ref, 'unit7', 'src/../x'));
    expect(code).toBe(2);
    expect(stderr).toContain('src/../x');
    expect(h.fake.requests.length).toBe(before);
    expect(h.fake.comments(REPO, issueNumber(ref))).toEqual([]);
  });
});

describe('paths check', () => {
  it.each([
    [['paths', 'check', 'src/a.ts'], 'missing --repo'],
    [['paths', 'verify', 'src/a.ts', '--repo', REPO], 'one subcommand, check'],
    [['paths', 'check', '--repo', REPO], 'takes check and a comma-separated list of paths'],
    [['paths', 'check', 'a/../b', '--repo', REPO], 'a/../b'],
    [['paths', 'check', 'a', '--repo', 'nope'], 'is not a repository'],
  ])('%j is a usage error (exit 2): %s', async (args, message) => {
    const h = await world({ app: true });
    const { code, stderr } = await h.cli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
