import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import { agentHolder } from '../../src/claims/holder-summary.js';
import { renderPathLine } from '../../src/claims/paths.js';
import type { ThreadComment } from '../../src/claims/types.js';
import { IssueGoneError, UnverifiableError } from '../../src/github/errors.js';
import type { IssueThread } from '../../src/github/thread.js';
import type { IssueKey } from '../../src/keys.js';
import { liveHoldersOverlapping } from '../../src/path-holders/live-holders-overlapping.js';
import { pathHoldersFor } from '../../src/path-holders/path-holders-for.js';
import { recordPathHolder } from '../../src/path-holders/record-path-holder.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { APP_LOGIN, claim, DEFAULT_CONFIG, NOW } from '../helpers/thread-builder.js';

/*
 * Enforcement across a repository (docs/protocol.md §10), over the in-memory store and
 * threads held in a map: which holders elsewhere a claim gives way to, which threads are
 * re-read for it, and what the index says afterwards.
 */

const REPO = { installationId: 7, owner: 'acme', repo: 'widgets' };
const key = (number: number): IssueKey => ({ ...REPO, number });

function pathComment(id: number, paths: string[], by = 'alice'): ThreadComment {
  const base = claim({ id, by });
  const [marker, ...rest] = base.body.split('\n');
  return { ...base, body: [marker, renderPathLine(paths), ...rest].join('\n') };
}

const thread = (...comments: ThreadComment[]): IssueThread => ({
  open: true,
  stateReason: null,
  isPullRequest: false,
  labels: [],
  assignees: [],
  comments,
});

/** A repository of issues, each a thread; counts every thread read. */
function repository(threads: Record<number, IssueThread | 'gone' | 'failing'>) {
  const reads: number[] = [];
  const store = new MemoryStore();
  const deps = {
    store,
    appLogin: APP_LOGIN,
    async readThread(k: IssueKey): Promise<IssueThread> {
      reads.push(k.number);
      const found = threads[k.number];
      if (found === 'gone' || found === undefined) throw new IssueGoneError(k);
      if (found === 'failing') throw new UnverifiableError('could not read the thread', k, 502);
      return found;
    },
  };
  return {
    store,
    reads,
    deps,
    /** Whom issue `n`, its thread `mine`, gives way to. */
    check: (n: number, mine: IssueThread) =>
      pathHoldersFor(deps, key(n), mine, DEFAULT_CONFIG, NOW),
    /** Indexes issue `n` as its thread's reconcile would. */
    async index(n: number) {
      const t = threads[n];
      if (typeof t !== 'object') throw new Error(`issue ${n} has no thread`);
      const holder = agentHolder(
        decide({ ...t, appLogin: APP_LOGIN, hints: [] }, DEFAULT_CONFIG, NOW).holder,
      );
      await store.setPathHolder(key(n), holder && { ...holder });
    },
  };
}

describe('pathHoldersFor: whom a claim gives way to (docs/protocol.md §10)', () => {
  it('a claim without paths costs no index read and no thread read', async () => {
    const repo = repository({ 1: thread(pathComment(10, ['src/'])), 2: thread(claim({ id: 20 })) });
    await repo.index(1);
    const check = await repo.check(2, thread(claim({ id: 20 })));
    expect(check.holders).toEqual([]);
    expect(repo.reads).toEqual([]);
  });

  it('paths that touch nobody cost no thread read', async () => {
    const repo = repository({ 1: thread(pathComment(10, ['src/'])) });
    await repo.index(1);
    const mine = thread(pathComment(20, ['docs/', 'srcs/a.ts']));
    expect((await repo.check(2, mine)).holders).toEqual([]);
    expect(repo.reads).toEqual([]);
  });

  it('an older overlapping holder is verified from its own thread, then weighed', async () => {
    const repo = repository({ 1: thread(pathComment(10, ['src/'])) });
    await repo.index(1);
    const check = await repo.check(2, thread(pathComment(20, ['src/a.ts'])));
    expect(check.holders).toEqual([
      { issue: 'acme/widgets#1', commentId: 10, session: 'session-10', paths: ['src/'] },
    ]);
    expect(repo.reads).toEqual([1]);
  });

  it('a younger holder elsewhere is not weighed here: its own reconcile gives way', async () => {
    const repo = repository({ 1: thread(pathComment(30, ['src/'])) });
    await repo.index(1);
    const check = await repo.check(2, thread(pathComment(20, ['src/a.ts'])));
    expect(check.holders).toEqual([]);
    expect(repo.reads).toEqual([]);
  });

  it('an index entry its thread no longer backs (released since) takes nothing', async () => {
    const threads: Record<number, IssueThread> = { 1: thread(pathComment(10, ['src/'])) };
    const repo = repository(threads);
    await repo.index(1);
    threads[1] = thread({ ...claim({ id: 10, stage: 'released', outcome: 'landed' }) });
    const check = await repo.check(2, thread(pathComment(20, ['src/a.ts'])));
    expect(check.holders).toEqual([]);
    expect(check.checked.get(1)).toBe(10);
  });

  it('a deleted issue takes nothing and leaves the index', async () => {
    const threads: Record<number, IssueThread | 'gone'> = { 1: thread(pathComment(10, ['src/'])) };
    const repo = repository(threads);
    await repo.index(1);
    threads[1] = 'gone';
    const check = await repo.check(2, thread(pathComment(20, ['src/a.ts'])));
    expect(check.holders).toEqual([]);
    expect(await repo.store.pathHolders(7, 'acme', 'widgets')).toEqual([]);
  });

  it('a thread that cannot be read fails the check (fail closed): nothing is decided on partial facts', async () => {
    const threads: Record<number, IssueThread | 'failing'> = {
      1: thread(pathComment(10, ['src/'])),
    };
    const repo = repository(threads);
    await repo.index(1);
    threads[1] = 'failing';
    await expect(repo.check(2, thread(pathComment(20, ['src/a.ts'])))).rejects.toThrow(
      UnverifiableError,
    );
  });

  it('keeping goes in comment-id order: a holder that lost its paths to an older one takes none from a younger', async () => {
    // #1 (10) holds src/a/; #2 (20) names src/ and loses to #1; #3 (30) names src/b.ts,
    // which only #2 touched: #3 keeps.
    const repo = repository({
      1: thread(pathComment(10, ['src/a/'])),
      2: thread(pathComment(20, ['src/'])),
    });
    await repo.index(1);
    await repo.index(2);
    const check = await repo.check(3, thread(pathComment(30, ['src/b.ts'])));
    expect(check.holders).toEqual([]);
    expect(repo.reads.sort()).toEqual([1, 2]);
    // And a claim on src/a/x.ts gives way to #1, the oldest.
    const other = await repo.check(4, thread(pathComment(40, ['src/a/x.ts'])));
    expect(other.holders.map((h) => h.issue)).toEqual(['acme/widgets#1']);
  });
});

describe('recordPathHolder: the index after a reconcile', () => {
  const log = { warn: () => {}, info: () => {} } as never;

  async function recorded(
    store: MemoryStore,
    n: number,
    comments: ThreadComment[],
    checked = new Map<number, number>(),
  ) {
    const asked: number[] = [];
    const plan = decide(
      { ...thread(...comments), appLogin: APP_LOGIN, hints: [] },
      DEFAULT_CONFIG,
      NOW,
    );
    await recordPathHolder(
      { store, log, requestReconcile: async (k) => void asked.push(k.number) },
      key(n),
      plan,
      { holders: [], checked },
    );
    return asked;
  }

  it('indexes a holder with paths, and removes it once it holds none', async () => {
    const store = new MemoryStore();
    await recorded(store, 1, [pathComment(10, ['src/'])]);
    expect(await store.pathHolders(7, 'acme', 'widgets')).toMatchObject([
      { number: 1, commentId: 10, paths: ['src/'], author: 'alice', branch: 'feat/10' },
    ]);
    await recorded(store, 1, [claim({ id: 10, stage: 'released', outcome: 'landed' })]);
    expect(await store.pathHolders(7, 'acme', 'widgets')).toEqual([]);
  });

  it('asks for a reconcile of a younger overlapping holder, and of itself when an older one came in unverified', async () => {
    const store = new MemoryStore();
    await recorded(store, 2, [pathComment(20, ['src/a.ts'])]);
    await recorded(store, 3, [pathComment(5, ['lib/'])]);
    // #1 (10) overlaps #2 (20, younger): #2 must give way.
    expect(await recorded(store, 1, [pathComment(10, ['src/'])])).toEqual([2]);
    // #2 again, with #1 not verified by its check: #2 is reconciled once more.
    expect(await recorded(store, 2, [pathComment(20, ['src/a.ts'])])).toEqual([2]);
    // With #1 verified, nothing more.
    expect(await recorded(store, 2, [pathComment(20, ['src/a.ts'])], new Map([[1, 10]]))).toEqual(
      [],
    );
  });
});

describe('liveHoldersOverlapping: the claims API asks before a claim is made', () => {
  it('names each verified holder a new claim would overlap, with the contested pairs', async () => {
    const threads: Record<number, IssueThread> = {
      1: thread(pathComment(10, ['src/', 'README.md'], 'carol')),
      2: thread(pathComment(20, ['docs/'])),
    };
    const repo = repository(threads);
    await repo.index(1);
    await repo.index(2);
    threads[2] = thread(claim({ id: 20, stage: 'released', outcome: 'landed' }));

    const conflicts = await liveHoldersOverlapping(
      repo.deps,
      key(3),
      ['src/a.ts', 'docs/guide.md', 'lib/'],
      DEFAULT_CONFIG,
      NOW,
    );
    expect(conflicts).toEqual([
      {
        number: 1,
        holder: expect.objectContaining({ commentId: 10, author: 'carol', branch: 'feat/10' }),
        pairs: [['src/a.ts', 'src/']],
      },
    ]);
    // #2's index entry was checked against its thread (released since), and took nothing.
    expect(repo.reads.sort()).toEqual([1, 2]);
    expect(await liveHoldersOverlapping(repo.deps, key(3), ['lib/'], DEFAULT_CONFIG, NOW)).toEqual(
      [],
    );
  });
});
