/**
 * Path claims through the claims app (docs/protocol.md §10): `claim --paths` sends them and
 * a 409 PATHS_CLAIMED is a refusal naming each contested path's warning and recovery, with
 * nothing written; `paths check` answers from the app without claiming; and a claim with
 * paths answers as it does in direct mode.
 */
import { describe, expect, it } from 'vitest';
import { pathLineOf } from '../../src/claims/paths.js';
import { claimArgs, issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();

function normalise(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<time>')
      .replace(/127\.0\.0\.1:\d+/g, '<host>')
      .replace(/"(commentId|finalised)":\d+/g, '"$1":0')
      .replace(/comment[ -]\d+/g, 'comment <id>'),
  );
}

describe('claim --paths through the app', () => {
  it('a claim with paths answers as direct mode does, and the comment carries the path line', async () => {
    const direct = await world();
    const api = await world({ app: true, sameMachineAs: direct });
    const answers = [];
    for (const h of [direct, api]) {
      const ref = h.issue();
      const { code, stdout } = await h.cli([
        ...claimArgs(ref, 'unit7', 'src/a.ts,docs/'),
        '--json',
      ]);
      expect(code).toBe(0);
      const [comment] = h.fake.comments(REPO, issueNumber(ref));
      expect(pathLineOf(comment!.body ?? '')).toEqual({
        kind: 'valid',
        paths: ['src/a.ts', 'docs/'],
      });
      answers.push(JSON.parse(stdout));
    }
    expect(answers[1].claim.paths).toEqual(['src/a.ts', 'docs/']);
    expect(normalise(answers[1])).toEqual(normalise(answers[0]));
  });

  it('paths held on another issue: refused (exit 1) with each warning and recovery, nothing written', async () => {
    const h = await world({ app: true });
    const first = h.issue();
    const second = h.issue();
    expect((await h.cli(claimArgs(first, 'unit7', 'src/'))).code).toBe(0);
    await h.app!.settle();
    const text = await h.cli(claimArgs(second, 'other', 'src/a.ts,README.md'), { login: 'bob' });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(
      `${second}: a path is held by another claim; nothing was written`,
    );
    expect(text.stderr).toMatch(
      new RegExp(`- alice claimed src/ \\d+ min ago \\(${first.replace('#', '#')}\\): wait: `),
    );
    const json = await h.cli([...claimArgs(second, 'other', 'src/a.ts'), '--json'], {
      login: 'bob',
    });
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'refused',
      exitCode: 1,
      reason: 'paths-claimed',
      conflicts: [
        {
          path: 'src/a.ts',
          heldPath: 'src/',
          heldIn: first,
          heldBy: { author: 'alice', session: h.tag('session', 'unit7') },
          recovery: { action: 'wait' },
        },
      ],
    });
    expect(h.fake.comments(REPO, issueNumber(second))).toEqual([]);
  });
});

describe('paths check through the app', () => {
  it('available, held by another claim (exit 1), and held by the caller (exit 0)', async () => {
    const h = await world({ app: true });
    const ref = h.issue();
    expect((await h.cli(claimArgs(ref, 'unit7', 'src/'))).code).toBe(0);
    await h.app!.settle();

    const free = await h.cli(['paths', 'check', 'docs/a.md', '--repo', REPO], { login: 'bob' });
    expect(free).toMatchObject({ code: 0, stdout: `${REPO}: docs/a.md: available\n` });

    const held = await h.cli(['paths', 'check', 'docs/a.md,src/x.ts', '--repo', REPO, '--json'], {
      login: 'bob',
    });
    expect(held.code).toBe(1);
    const body = JSON.parse(held.stdout);
    expect(body).toMatchObject({
      status: 'refused',
      reason: 'paths-claimed',
      paths: [
        { path: 'docs/a.md', available: true },
        {
          path: 'src/x.ts',
          available: false,
          heldPath: 'src/',
          heldIn: ref,
          isSelf: false,
          heldBy: { author: 'alice' },
        },
      ],
    });
    expect(body.message).toContain(`src/x.ts: held as src/ by @alice in ${ref}`);

    const mine = await h.cli(['paths', 'check', 'src/x.ts', '--repo', REPO]);
    expect(mine.code).toBe(0);
    expect(mine.stdout).toContain('by @alice (you)');
  });
});
