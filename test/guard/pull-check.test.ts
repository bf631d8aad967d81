import { describe, expect, it } from 'vitest';
import { encodePath } from '../../src/claims/paths.js';
import type { AgentHolder } from '../../src/claims/plan.js';
import {
  formatAge,
  MAX_TABLE_ROWS,
  pullCheck,
  type VerifiedHolder,
} from '../../src/guard/pull-check.js';

const now = new Date('2030-01-01T12:00:00Z');
const MIN = 60_000;

function holder(number: number, paths: string[], branch = `feat/${number}`): VerifiedHolder {
  const summary: AgentHolder = {
    kind: 'agent',
    commentId: number * 10,
    author: `user${number}`,
    session: `s-${number}`,
    stage: 'implementing',
    lane: 'default',
    branch,
    started: new Date(now.getTime() - 125 * MIN),
    updated: new Date(now.getTime() - 5 * MIN),
    heartbeat: new Date(now.getTime() - 5 * MIN),
    paths,
  };
  return { issue: `acme/widgets#${number}`, number, holder: summary };
}

const head = { sha: 'abc', ref: 'feat/pr', sameRepo: true };
const check = (
  files: string[],
  holders: VerifiedHolder[],
  options: Partial<Parameters<typeof pullCheck>[0]> = {},
) => pullCheck({ files, holders, head, pathGuard: 'fail', now, ...options });

describe('pullCheck (docs/protocol.md §11)', () => {
  it.each([
    ['a file named by an entry', ['src/a.ts'], ['src/a.ts'], 'failure'],
    ['a file under a directory entry', ['docs/x/y.md'], ['docs/'], 'failure'],
    [
      'a sibling with a common prefix',
      ['src/a.tsx', 'docsx/y.md'],
      ['src/a.ts', 'docs/'],
      'success',
    ],
    // An entry covers everything under it, written with its / or not (§10).
    ['a directory entry without its slash', ['src/a/b.ts'], ['src/a'], 'failure'],
    ['a name that merely starts like the entry', ['src/ab.ts'], ['src/a'], 'success'],
    ['no files', [], ['src/'], 'success'],
  ])('%s: %s', (_, files, paths, conclusion) => {
    expect(check(files, [holder(5, paths)]).outcome.conclusion).toBe(conclusion);
  });

  it.each([
    ['fail', 'failure'],
    ['warn', 'neutral'],
  ] as const)('pathGuard %s concludes %s on a conflict', (pathGuard, conclusion) => {
    expect(check(['a.ts'], [holder(5, ['a.ts'])], { pathGuard }).outcome.conclusion).toBe(
      conclusion,
    );
  });

  it('a repository where no path is claimed passes, and the check says why', () => {
    expect(check([], [], { unclaimed: true }).outcome).toEqual({
      conclusion: 'success',
      title: 'No held paths touched',
      summary: 'No path is claimed in this repository, so no changed file lies in a held path.',
    });
  });

  it("the holder whose branch is the pull request's head is its own work, not a conflict", () => {
    const verdict = check(['src/a.ts'], [holder(5, ['src/'], 'feat/pr')]);
    expect(verdict.outcome.conclusion).toBe('success');
    expect(verdict.outcome.title).toBe('The work of acme/widgets#5');
    expect(verdict.flaggedBy).toEqual([]);
  });

  it('a fork with the same branch name is not the claim’s work', () => {
    const verdict = check(['src/a.ts'], [holder(5, ['src/'], 'feat/pr')], {
      head: { ...head, sameRepo: false },
    });
    expect(verdict.outcome.conclusion).toBe('failure');
  });

  it('lists one row per file and holder, and flags each holder once', () => {
    const verdict = check(
      ['docs/a.md', 'src/a.ts'],
      [holder(5, ['docs/', 'src/a.ts']), holder(6, ['docs/a.md'])],
    );
    expect(verdict.outcome.title).toBe('2 changed files lie in paths held by other claims');
    expect(verdict.outcome.summary.split('\n').filter((l) => l.startsWith('| `'))).toEqual([
      '| `docs/a.md` | acme/widgets#5 | `docs/` | `s-5` | `user5` | 2 h 5 min ago |',
      '| `docs/a.md` | acme/widgets#6 | `docs/a.md` | `s-6` | `user6` | 2 h 5 min ago |',
      '| `src/a.ts` | acme/widgets#5 | `src/a.ts` | `s-5` | `user5` | 2 h 5 min ago |',
    ]);
    expect(verdict.flaggedBy.map((h) => h.issue)).toEqual(['acme/widgets#5', 'acme/widgets#6']);
  });

  it('a pipe or backtick in a file name cannot break the table', () => {
    const summary = check(['a|b`c.ts'], [holder(5, [encodePath('a|b`c.ts')])]).outcome.summary;
    expect(summary).toContain('| ``a\\|b`c.ts`` |');
  });

  it(`shows at most ${MAX_TABLE_ROWS} rows and counts the rest`, () => {
    const files = Array.from({ length: MAX_TABLE_ROWS + 7 }, (_, i) => `lib/${i}.ts`);
    const summary = check(files, [holder(5, ['lib/'])]).outcome.summary;
    expect(summary.split('\n').filter((l) => l.startsWith('| `'))).toHaveLength(MAX_TABLE_ROWS);
    expect(summary).toContain('…and 7 more.');
  });

  it.each([
    [0, '0 min'],
    [59 * MIN, '59 min'],
    [60 * MIN, '1 h'],
    [125 * MIN, '2 h 5 min'],
    [24 * 60 * MIN, '1 d'],
    [(3 * 24 + 4) * 60 * MIN, '3 d 4 h'],
    [-MIN, '0 min'],
  ])('formatAge(%i) is %s', (ms, text) => {
    expect(formatAge(ms)).toBe(text);
  });
});
