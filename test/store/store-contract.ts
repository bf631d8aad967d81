import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IssueKey } from '../../src/keys.js';
import { CLAIM_CHANGES_CAP, type ClaimChange } from '../../src/store/board-records.js';
import type { IndexedClaim, IndexedIssue, Store } from '../../src/store/store.js';
import { sleep } from '../helpers/redis.js';

/** One store under test; `advance` moves its clock, else expiry tests wait in real time. */
export interface StoreFixture {
  readonly store: Store;
  advance?(ms: number): void;
  cleanup(): Promise<void>;
}

/** A short TTL: real enough for Redis's expiry, short enough to keep the suite fast. */
const TTL = 80;
/** Comfortably past {@link TTL}, so Redis has expired the key when a test looks again. */
const PAST_TTL = 160;

function issue(number: number, overrides: Partial<IssueKey> = {}): IssueKey {
  return { installationId: 7, owner: 'acme', repo: 'widgets', number, ...overrides };
}

const base = Date.parse('2030-01-01T00:00:00Z');
const at = (seconds: number) => new Date(base + seconds * 1000);

/**
 * The behaviour every {@link Store} shares (the embedded and the Redis one), so the app can
 * rely on the interface and not on an implementation.
 */
export function describeStoreContract(name: string, makeStore: () => Promise<StoreFixture>): void {
  describe(`${name} (Store contract)`, () => {
    let fixture: StoreFixture;
    let store: Store;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    /** Lets `ms` pass on the store's clock: its own when it has one, else real time. */
    async function pass(ms: number): Promise<void> {
      if (fixture.advance) fixture.advance(ms);
      else await sleep(ms);
    }

    describe('delivery ids', () => {
      it('a delivery id is new the first time and a duplicate after', async () => {
        expect(await store.markDelivery('d-1', 60_000)).toBe(true);
        expect(await store.markDelivery('d-1', 60_000)).toBe(false);
        expect(await store.markDelivery('d-2', 60_000)).toBe(true);
      });

      it('of concurrent marks of one id exactly one wins', async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, () => store.markDelivery('d-race', 60_000)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('a delivery id is forgotten after its ttl', async () => {
        expect(await store.markDelivery('d-ttl', TTL)).toBe(true);
        await pass(PAST_TTL);
        expect(await store.markDelivery('d-ttl', TTL)).toBe(true);
      });

      it('a ttl that is not positive is refused', async () => {
        await expect(store.markDelivery('d-zero', 0)).rejects.toThrow(RangeError);
      });

      it('a confirmed delivery id is kept for its new ttl', async () => {
        expect(await store.markDelivery('d-confirm', TTL)).toBe(true);
        await store.confirmDelivery('d-confirm', 60_000);
        await pass(PAST_TTL);
        expect(await store.markDelivery('d-confirm', TTL)).toBe(false);
      });

      it('a forgotten delivery id is new again', async () => {
        expect(await store.markDelivery('d-forget', 60_000)).toBe(true);
        await store.forgetDelivery('d-forget');
        expect(await store.markDelivery('d-forget', 60_000)).toBe(true);
      });

      it('confirming an id that was never recorded does not record it', async () => {
        await store.confirmDelivery('d-never', 60_000);
        expect(await store.markDelivery('d-never', 60_000)).toBe(true);
      });
    });

    describe('holders', () => {
      it('remembers the holder of each issue until it is cleared', async () => {
        expect(await store.holderOf(issue(1))).toBeNull();
        await store.setHolder(issue(1), 3_000_000_001);
        await store.setHolder(issue(2), 7);
        await store.setHolder(issue(1), 3_000_000_002);
        expect(await store.holderOf(issue(1))).toBe(3_000_000_002);
        expect(await store.holderOf(issue(2))).toBe(7);
        await store.setHolder(issue(1), null);
        expect(await store.holderOf(issue(1))).toBeNull();
        expect(await store.holderOf(issue(2))).toBe(7);
      });
    });

    describe('queue settings', () => {
      it('keeps what each repository’s claims.yml offers; null is nothing claimable, unknown is undefined', async () => {
        const where = { owner: 'acme', repo: 'widgets' };
        expect(await store.queueSettings(where)).toBeUndefined();
        await store.setQueueSettings(where, { labels: ['ready'], exclude: ['wontfix'] });
        await store.setQueueSettings({ owner: 'acme', repo: 'off' }, null);
        expect(await store.queueSettings({ owner: 'ACME', repo: 'Widgets' })).toEqual({
          labels: ['ready'],
          exclude: ['wontfix'],
        });
        expect(await store.queueSettings({ owner: 'acme', repo: 'off' })).toBeNull();
        await store.setQueueSettings(where, null);
        expect(await store.queueSettings(where)).toBeNull();
      });
    });

    describe('pending events', () => {
      const pending = (commentId: number) => ({
        event: {
          id: `e-${commentId}`,
          type: 'claim.lost' as const,
          at: '2030-01-01T00:00:00Z',
          installation: 7,
          repository: 'acme/widgets',
          issue: 1,
          claim: { commentId },
        },
        marker: `<!-- praetor-claim v=1 stage=released c=${commentId} -->`,
      });

      it('keeps each issue’s pending events until an empty list or forgetting the issue', async () => {
        expect(await store.pendingEvents(issue(1))).toEqual([]);
        await store.setPendingEvents(issue(1), [pending(3), pending(4)]);
        await store.setPendingEvents(issue(2), [pending(5)]);
        expect(await store.pendingEvents(issue(1))).toEqual([pending(3), pending(4)]);
        await store.setPendingEvents(issue(1), [pending(4)]);
        expect(await store.pendingEvents(issue(1))).toEqual([pending(4)]);
        await store.setPendingEvents(issue(1), []);
        expect(await store.pendingEvents(issue(1))).toEqual([]);
        await store.forgetIssue(issue(2));
        expect(await store.pendingEvents(issue(2))).toEqual([]);
      });
    });

    describe('deadline index', () => {
      it('lists due issues earliest first, at or before now, at most limit', async () => {
        await store.setDeadline(issue(3), at(30));
        await store.setDeadline(issue(1), at(10));
        await store.setDeadline(issue(2), at(20));
        await store.setDeadline(issue(4), at(40));

        expect(await store.dueIssues(at(30), 10)).toEqual([issue(1), issue(2), issue(3)]);
        expect(await store.dueIssues(at(30), 2)).toEqual([issue(1), issue(2)]);
        expect(await store.dueIssues(at(9), 10)).toEqual([]);
        expect(await store.dueIssues(at(30), 0)).toEqual([]);
      });

      it('reading due issues does not remove them', async () => {
        await store.setDeadline(issue(1), at(10));
        expect(await store.dueIssues(at(10), 10)).toEqual([issue(1)]);
        expect(await store.dueIssues(at(10), 10)).toEqual([issue(1)]);
        expect(await store.countDeadlines()).toBe(1);
      });

      it('setting a deadline again moves it, and null removes it', async () => {
        await store.setDeadline(issue(1), at(10));
        await store.setDeadline(issue(2), at(20));
        await store.setDeadline(issue(1), at(30));
        expect(await store.dueIssues(at(25), 10)).toEqual([issue(2)]);
        expect(await store.dueIssues(at(30), 10)).toEqual([issue(2), issue(1)]);
        expect(await store.countDeadlines()).toBe(2);

        await store.setDeadline(issue(2), null);
        await store.setDeadline(issue(9), null);
        expect(await store.dueIssues(at(30), 10)).toEqual([issue(1)]);
        expect(await store.countDeadlines()).toBe(1);
      });

      it('issues of different repositories and installations are distinct', async () => {
        const keys = [
          issue(1),
          issue(1, { repo: 'gadgets' }),
          issue(1, { owner: 'my-org.io', repo: 'repo_name.js' }),
          issue(1, { installationId: 8 }),
        ];
        for (const [i, key] of keys.entries()) await store.setDeadline(key, at(i));
        expect(await store.dueIssues(at(10), 10)).toEqual(keys);
        expect(await store.countDeadlines()).toBe(4);
      });

      it('equal deadlines all come back', async () => {
        await store.setDeadline(issue(2), at(5));
        await store.setDeadline(issue(1), at(5));
        const due = await store.dueIssues(at(5), 10);
        expect(due).toHaveLength(2);
        expect(due).toEqual(expect.arrayContaining([issue(1), issue(2)]));
      });
    });

    describe('issues GitHub answered 404 or 410', () => {
      it('the first answer is not proof; the second in a row is', async () => {
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(false);
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(true);
        expect(await store.noteIssueGone(issue(2), 60_000)).toBe(false);
      });

      it('an answer in between clears the first', async () => {
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(false);
        await store.clearIssueGone(issue(1));
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(false);
      });

      it('a first answer older than its TTL no longer counts', async () => {
        expect(await store.noteIssueGone(issue(1), TTL)).toBe(false);
        await pass(PAST_TTL);
        expect(await store.noteIssueGone(issue(1), TTL)).toBe(false);
      });
    });

    describe('assignees the app added', () => {
      it('are remembered per issue, and an empty list forgets them', async () => {
        expect(await store.appAssignees(issue(1))).toEqual([]);
        await store.setAppAssignees(issue(1), ['alice', 'Bob']);
        await store.setAppAssignees(issue(2, { installationId: 8 }), ['carol']);
        expect(await store.appAssignees(issue(1))).toEqual(['alice', 'Bob']);
        expect(await store.appAssignees(issue(2))).toEqual([]);
        await store.setAppAssignees(issue(1), []);
        expect(await store.appAssignees(issue(1))).toEqual([]);
        expect(await store.appAssignees(issue(2, { installationId: 8 }))).toEqual(['carol']);
      });
    });

    describe('forgetting an issue', () => {
      it('drops its deadline, holder, assignees and noted 404, and nothing of others', async () => {
        for (const key of [issue(1), issue(2)]) {
          await store.setDeadline(key, at(10));
          await store.setHolder(key, 42);
          await store.setAppAssignees(key, ['alice']);
          await store.noteIssueGone(key, 60_000);
        }
        await store.forgetIssue(issue(1));
        expect(await store.dueIssues(at(10), 10)).toEqual([issue(2)]);
        expect(await store.holderOf(issue(1))).toBeNull();
        expect(await store.appAssignees(issue(1))).toEqual([]);
        expect(await store.noteIssueGone(issue(1), 60_000)).toBe(false);
        expect(await store.holderOf(issue(2))).toBe(42);
        expect(await store.appAssignees(issue(2))).toEqual(['alice']);
        expect(await store.noteIssueGone(issue(2), 60_000)).toBe(true);
      });
    });

    describe('checkpoints', () => {
      it('a repository without a checkpoint has none', async () => {
        expect(
          await store.getCheckpoint({ installationId: 7, owner: 'acme', repo: 'widgets' }),
        ).toBeNull();
      });

      it('a checkpoint is kept per repository, to the millisecond, and overwritten', async () => {
        await store.setCheckpoint(
          { installationId: 7, owner: 'acme', repo: 'widgets' },
          new Date('2030-01-01T00:00:00.123Z'),
        );
        await store.setCheckpoint(
          { installationId: 7, owner: 'acme', repo: 'gadgets' },
          new Date('2030-01-02T00:00:00Z'),
        );
        await store.setCheckpoint(
          { installationId: 8, owner: 'acme', repo: 'widgets' },
          new Date('2030-01-03T00:00:00Z'),
        );
        expect(
          await store.getCheckpoint({ installationId: 7, owner: 'acme', repo: 'widgets' }),
        ).toEqual(new Date('2030-01-01T00:00:00.123Z'));
        expect(
          await store.getCheckpoint({ installationId: 7, owner: 'acme', repo: 'gadgets' }),
        ).toEqual(new Date('2030-01-02T00:00:00Z'));
        expect(
          await store.getCheckpoint({ installationId: 8, owner: 'acme', repo: 'widgets' }),
        ).toEqual(new Date('2030-01-03T00:00:00Z'));

        await store.setCheckpoint(
          { installationId: 7, owner: 'acme', repo: 'widgets' },
          new Date('2030-02-01T00:00:00Z'),
        );
        expect(
          await store.getCheckpoint({ installationId: 7, owner: 'acme', repo: 'widgets' }),
        ).toEqual(new Date('2030-02-01T00:00:00Z'));
      });
    });

    describe('locks', () => {
      it('a held lock is not given to anyone else', async () => {
        const token = await store.acquireLock('issue-1', 60_000);
        expect(token).toEqual(expect.any(String));
        expect(await store.acquireLock('issue-1', 60_000)).toBeNull();
        expect(await store.acquireLock('issue-2', 60_000)).toEqual(expect.any(String));
      });

      it('of concurrent acquires exactly one gets the lock', async () => {
        const tokens = await Promise.all(
          Array.from({ length: 10 }, () => store.acquireLock('contended', 60_000)),
        );
        expect(tokens.filter((token) => token !== null)).toHaveLength(1);
      });

      it('only the holder releases a lock', async () => {
        const token = (await store.acquireLock('issue-1', 60_000))!;
        expect(await store.releaseLock('issue-1', 'not-the-token')).toBe(false);
        expect(await store.acquireLock('issue-1', 60_000)).toBeNull();
        expect(await store.releaseLock('issue-1', token)).toBe(true);
        expect(await store.releaseLock('issue-1', token)).toBe(false);
        expect(await store.acquireLock('issue-1', 60_000)).toEqual(expect.any(String));
      });

      it('tokens differ between holders', async () => {
        const first = (await store.acquireLock('issue-1', 60_000))!;
        await store.releaseLock('issue-1', first);
        const second = (await store.acquireLock('issue-1', 60_000))!;
        expect(second).not.toBe(first);
      });

      it('a lock whose holder died expires', async () => {
        await store.acquireLock('issue-1', TTL);
        await pass(PAST_TTL);
        expect(await store.acquireLock('issue-1', 60_000)).toEqual(expect.any(String));
      });

      it('extending keeps a lock past its first ttl', async () => {
        const token = (await store.acquireLock('issue-1', TTL))!;
        expect(await store.extendLock('issue-1', token, 60_000)).toBe(true);
        await pass(PAST_TTL);
        expect(await store.acquireLock('issue-1', 60_000)).toBeNull();
        expect(await store.extendLock('issue-1', 'not-the-token', 60_000)).toBe(false);
      });

      it('an expired holder can neither extend nor release the next holder`s lock', async () => {
        const stale = (await store.acquireLock('issue-1', TTL))!;
        await pass(PAST_TTL);
        expect(await store.extendLock('issue-1', stale, 60_000)).toBe(false);
        const fresh = (await store.acquireLock('issue-1', 60_000))!;
        expect(await store.releaseLock('issue-1', stale)).toBe(false);
        expect(await store.extendLock('issue-1', stale, 60_000)).toBe(false);
        expect(await store.acquireLock('issue-1', 60_000)).toBeNull();
        expect(await store.releaseLock('issue-1', fresh)).toBe(true);
      });
    });

    describe('path holders (docs/protocol.md §10)', () => {
      const holder = (commentId: number, paths: string[]) => ({
        commentId,
        session: `h:${String(commentId).padStart(12, '0')}`,
        author: 'alice',
        branch: `feat/${commentId}`,
        heartbeat: at(commentId),
        paths,
      });

      it('lists the holders of a repository with their paths, by issue number', async () => {
        await store.setPathHolder(issue(9), holder(90, ['docs/']));
        await store.setPathHolder(issue(3), holder(30, ['src/a.ts', 'src/b.ts']));
        expect(await store.pathHolders(7, 'acme', 'widgets')).toEqual([
          { number: 3, ...holder(30, ['src/a.ts', 'src/b.ts']) },
          { number: 9, ...holder(90, ['docs/']) },
        ]);
      });

      it('setting an issue again replaces its entry; null or no paths removes it', async () => {
        await store.setPathHolder(issue(1), holder(10, ['a']));
        await store.setPathHolder(issue(1), holder(11, ['b']));
        expect(await store.pathHolders(7, 'acme', 'widgets')).toEqual([
          { number: 1, ...holder(11, ['b']) },
        ]);
        await store.setPathHolder(issue(1), null);
        expect(await store.pathHolders(7, 'acme', 'widgets')).toEqual([]);
        await store.setPathHolder(issue(2), holder(20, ['c']));
        await store.setPathHolder(issue(2), holder(20, []));
        expect(await store.pathHolders(7, 'acme', 'widgets')).toEqual([]);
      });

      it('repositories and installations are indexed apart', async () => {
        await store.setPathHolder(issue(1), holder(10, ['a']));
        await store.setPathHolder(issue(1, { repo: 'gadgets' }), holder(11, ['a']));
        await store.setPathHolder(issue(1, { installationId: 8 }), holder(12, ['a']));
        expect((await store.pathHolders(7, 'acme', 'widgets')).map((h) => h.commentId)).toEqual([
          10,
        ]);
        expect((await store.pathHolders(7, 'acme', 'gadgets')).map((h) => h.commentId)).toEqual([
          11,
        ]);
        expect((await store.pathHolders(8, 'acme', 'widgets')).map((h) => h.commentId)).toEqual([
          12,
        ]);
        expect(await store.pathHolders(7, 'acme', 'nothing')).toEqual([]);
      });

      it('concurrent writes of different issues all land', async () => {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.setPathHolder(issue(i + 1), holder(i + 1, [`f${i}`])),
          ),
        );
        expect(await store.pathHolders(7, 'acme', 'widgets')).toHaveLength(20);
      });
    });

    describe('delivery recovery checkpoint (docs/protocol.md §12)', () => {
      it('there is none before the first run', async () => {
        expect(await store.deliveryCheckpoint()).toBeNull();
      });

      it('keeps the newest delivery examined, to the millisecond, and overwrites it', async () => {
        await store.setDeliveryCheckpoint({ id: 41, deliveredAt: at(1.5) });
        expect(await store.deliveryCheckpoint()).toEqual({ id: 41, deliveredAt: at(1.5) });
        await store.setDeliveryCheckpoint({ id: 97, deliveredAt: at(60) });
        expect(await store.deliveryCheckpoint()).toEqual({ id: 97, deliveredAt: at(60) });
      });
    });

    describe('answers kept for conditional requests', () => {
      const url = 'https://api.github.com/installation/repositories?per_page=100';

      it('an answer is kept per token scope and URL', async () => {
        await store.setCachedRead('installation:7', url, { etag: 'W/"a"', value: '[1]' }, 60_000);
        expect(await store.cachedRead('installation:7', url)).toEqual({
          etag: 'W/"a"',
          value: '[1]',
        });
        // Another installation's token never sees this ETag, nor another URL.
        expect(await store.cachedRead('installation:8', url)).toBeNull();
        expect(await store.cachedRead('installation:7', `${url}&page=2`)).toBeNull();
      });

      it('a newer answer replaces the one before', async () => {
        await store.setCachedRead('app', url, { etag: '"1"', value: 'a' }, 60_000);
        await store.setCachedRead('app', url, { etag: '"2"', value: 'b' }, 60_000);
        expect(await store.cachedRead('app', url)).toEqual({ etag: '"2"', value: 'b' });
      });

      it('an answer is forgotten after its TTL', async () => {
        await store.setCachedRead('app', url, { etag: '"1"', value: 'a' }, TTL);
        if (fixture.advance) fixture.advance(PAST_TTL);
        else await sleep(PAST_TTL);
        expect(await store.cachedRead('app', url)).toBeNull();
      });
    });

    describe('branch holders (docs/protocol.md §11)', () => {
      const holder = (commentId: number, branch: string) => ({
        commentId,
        author: 'alice',
        branch,
        heartbeat: at(commentId),
      });
      const widgets = { installationId: 7, owner: 'acme', repo: 'widgets' };

      it('lists the holders naming a branch, by issue number, and no other branch', async () => {
        await store.setBranchHolder(issue(9), holder(90, 'feat/x'));
        await store.setBranchHolder(issue(3), holder(30, 'feat/x'));
        await store.setBranchHolder(issue(4), holder(40, 'feat/y'));
        expect(await store.branchHolders(widgets, 'feat/x')).toEqual([
          { number: 3, ...holder(30, 'feat/x') },
          { number: 9, ...holder(90, 'feat/x') },
        ]);
        expect(await store.branchHolders(widgets, 'feat/X')).toEqual([]);
        expect(await store.branchHolders({ ...widgets, repo: 'gadgets' }, 'feat/x')).toEqual([]);
        expect(await store.branchHolders({ ...widgets, installationId: 8 }, 'feat/y')).toEqual([]);
      });

      it('setting an issue again moves it to its new branch; null or forgetting removes it', async () => {
        await store.setBranchHolder(issue(1), holder(10, 'feat/a'));
        await store.setBranchHolder(issue(1), holder(11, 'feat/b'));
        expect(await store.branchHolders(widgets, 'feat/a')).toEqual([]);
        expect(await store.branchHolders(widgets, 'feat/b')).toEqual([
          { number: 1, ...holder(11, 'feat/b') },
        ]);
        await store.setBranchHolder(issue(1), null);
        expect(await store.branchHolders(widgets, 'feat/b')).toEqual([]);
        await store.setBranchHolder(issue(2), holder(20, 'feat/c'));
        await store.forgetIssue(issue(2));
        expect(await store.branchHolders(widgets, 'feat/c')).toEqual([]);
      });
    });

    describe('pull requests a holder flagged (docs/protocol.md §11)', () => {
      it('takes the pulls flagged by other comments than the one that still holds, once', async () => {
        await store.flagPull(issue(1), 'c10', 40);
        await store.flagPull(issue(1), 'c10', 41);
        await store.flagPull(issue(1), 'c12', 42);
        await store.flagPull(issue(2), 'c20', 43);
        expect(await store.takeFlaggedPulls(issue(1), 'c12')).toEqual([40, 41]);
        expect(await store.takeFlaggedPulls(issue(1), 'c12')).toEqual([]);
        expect(await store.takeFlaggedPulls(issue(1), null)).toEqual([42]);
        expect(await store.takeFlaggedPulls(issue(2), 'c20')).toEqual([]);
      });

      it('a pull flagged again by the new holder is kept for it', async () => {
        await store.flagPull(issue(1), 'c10', 40);
        await store.flagPull(issue(1), 'c11', 40);
        expect(await store.takeFlaggedPulls(issue(1), 'c11')).toEqual([]);
        expect(await store.takeFlaggedPulls(issue(1), null)).toEqual([40]);
      });

      it('forgetting the issue forgets what it flagged', async () => {
        await store.flagPull(issue(1), 'c10', 40);
        await store.forgetIssue(issue(1));
        expect(await store.takeFlaggedPulls(issue(1), null)).toEqual([]);
      });
    });

    it('answers a ping', async () => {
      expect(await store.ping()).toBe(true);
    });

    describe('open-issue index', () => {
      const open = (number: number, updatedAt: string, overrides: Partial<IndexedIssue> = {}) => ({
        key: issue(number),
        title: `Issue ${number}`,
        url: `https://github.com/acme/widgets/issues/${number}`,
        labels: ['bug'],
        assignees: [],
        createdAt: '2030-01-01T00:00:00Z',
        updatedAt,
        ...overrides,
      });
      const claim: IndexedClaim = {
        commentId: 3_000_000_001,
        url: 'https://github.com/acme/widgets/issues/1#issuecomment-3000000001',
        author: 'alice',
        session: 'h:5f4dcc3b5aa7',
        lane: 'h:098f6bcd4621',
        branch: 'feat/x',
        stage: 'claimed',
        started: '2030-01-01T00:00:00Z',
        updated: '2030-01-01T00:00:00Z',
        heartbeat: '2030-01-01T00:00:00Z',
        staleAt: '2030-01-01T06:00:01Z',
        assignee: 'claim',
        paths: ['src/a.ts', 'docs/'],
        avatarUrl: 'https://avatars.githubusercontent.com/u/1?v=4',
        commentUpdatedAt: '2030-01-01T00:00:00Z',
      };
      /** A later edit of the claim's comment, as a heartbeat webhook reports it. */
      const beat = (at: string, overrides: Partial<IndexedClaim> = {}): IndexedClaim => ({
        ...claim,
        stage: 'implementing',
        updated: at,
        heartbeat: at,
        commentUpdatedAt: at,
        ...overrides,
      });
      const byNumber = async () =>
        (await store.openIssues()).sort((a, b) => a.issue.key.number - b.issue.key.number);

      it('lists the open issues put, each with its claim summary', async () => {
        await store.putOpenIssue(open(1, '2030-01-01T00:00:00Z'));
        await store.putOpenIssue(open(2, '2030-01-01T00:00:00Z'));
        await store.setIssueClaim(issue(1), claim);
        expect(await byNumber()).toEqual([
          { issue: open(1, '2030-01-01T00:00:00Z'), claim },
          { issue: open(2, '2030-01-01T00:00:00Z'), claim: null },
        ]);
        await store.setIssueClaim(issue(1), null);
        expect((await byNumber())[0]?.claim).toBeNull();
      });

      it('an older snapshot of an issue never replaces a newer one', async () => {
        await store.putOpenIssue(open(1, '2030-01-01T00:05:00Z', { title: 'new' }));
        await store.putOpenIssue(open(1, '2030-01-01T00:01:00Z', { title: 'old' }));
        expect((await byNumber())[0]?.issue.title).toBe('new');
        await store.putOpenIssue(open(1, '2030-01-01T00:05:00Z', { title: 'same time' }));
        expect((await byNumber())[0]?.issue.title).toBe('same time');
      });

      it('a dropped issue leaves the index with its claim', async () => {
        await store.putOpenIssue(open(1, '2030-01-01T00:00:00Z'));
        await store.setIssueClaim(issue(1), claim);
        await store.dropOpenIssue(issue(1));
        expect(await store.openIssues()).toEqual([]);
        await store.putOpenIssue(open(1, '2030-01-01T00:00:00Z'));
        expect((await byNumber())[0]?.claim).toBeNull();
      });

      it('reads one issue’s claim as it was recorded', async () => {
        expect(await store.issueClaim(issue(1))).toBeNull();
        await store.setIssueClaim(issue(1), claim);
        expect(await store.issueClaim(issue(1))).toEqual(claim);
        expect(await store.issueClaim(issue(2))).toBeNull();
      });

      it('a heartbeat moves the claim forward, never back, and only over its own comment', async () => {
        await store.putOpenIssue(open(1, '2030-01-01T00:00:00Z'));
        await store.setIssueClaim(issue(1), claim);
        const later = beat('2030-01-01T00:10:00Z');
        expect(await store.renewIssueClaim(issue(1), later)).toBe(true);
        // Late, repeated or of another comment: the claim stays.
        expect(await store.renewIssueClaim(issue(1), beat('2030-01-01T00:05:00Z'))).toBe(false);
        expect(await store.renewIssueClaim(issue(1), beat('2030-01-01T00:10:00Z'))).toBe(false);
        expect(
          await store.renewIssueClaim(issue(1), beat('2030-01-01T00:20:00Z', { commentId: 9 })),
        ).toBe(false);
        expect((await byNumber())[0]?.claim).toEqual(later);
      });

      it('a heartbeat never brings back a claim a reconcile removed or replaced', async () => {
        await store.putOpenIssue(open(1, '2030-01-01T00:00:00Z'));
        expect(await store.renewIssueClaim(issue(1), beat('2030-01-01T00:10:00Z'))).toBe(false);
        const next = { ...claim, commentId: 3_000_000_002, author: 'bob' };
        await store.setIssueClaim(issue(1), next);
        expect(await store.renewIssueClaim(issue(1), beat('2030-01-01T00:10:00Z'))).toBe(false);
        expect((await byNumber())[0]?.claim).toEqual(next);
        await store.setIssueClaim(issue(1), null);
        expect(await store.renewIssueClaim(issue(1), beat('2030-01-01T00:20:00Z'))).toBe(false);
        expect((await byNumber())[0]?.claim).toBeNull();
      });

      it('a reconcile’s claim replaces a newer heartbeat: it is the truth', async () => {
        await store.setIssueClaim(issue(1), claim);
        await store.renewIssueClaim(issue(1), beat('2030-01-01T00:10:00Z'));
        await store.setIssueClaim(issue(1), claim);
        expect(await store.issueClaim(issue(1))).toEqual(claim);
      });

      it('forgetting an issue drops it from the index with its claim', async () => {
        await store.putOpenIssue(open(1, '2030-01-01T00:00:00Z'));
        await store.putOpenIssue(open(2, '2030-01-01T00:00:00Z'));
        await store.setIssueClaim(issue(1), claim);
        await store.forgetIssue(issue(1));
        expect((await byNumber()).map((e) => e.issue.key.number)).toEqual([2]);
        expect(await store.issueClaim(issue(1))).toBeNull();
      });

      it('replacing a repository keeps the listed issues, other repositories and fresh events', async () => {
        const elsewhere = { ...open(9, '2030-01-01T00:00:00Z'), key: issue(9, { repo: 'gears' }) };
        await store.putOpenIssue(open(1, '2030-01-01T00:00:00Z'));
        await store.putOpenIssue(open(2, '2030-01-01T00:00:00Z'));
        // Indexed by an event while the listing ran: kept although the listing missed it.
        await store.putOpenIssue(open(3, '2030-01-01T01:00:00Z'));
        await store.putOpenIssue(elsewhere);
        await store.setIssueClaim(issue(2), claim);
        await store.replaceOpenIssues(
          { installationId: 7, owner: 'acme', repo: 'widgets' },
          [open(1, '2030-01-01T00:30:00Z', { title: 'renamed' })],
          new Date('2030-01-01T01:00:00Z'),
        );
        const entries = await byNumber();
        expect(entries.map((e) => [e.issue.key.repo, e.issue.key.number, e.issue.title])).toEqual([
          ['widgets', 1, 'renamed'],
          ['widgets', 3, 'Issue 3'],
          ['gears', 9, 'Issue 9'],
        ]);
        // The closed issue's claim went with it.
        await store.putOpenIssue(open(2, '2030-01-01T02:00:00Z'));
        expect((await byNumber()).find((e) => e.issue.key.number === 2)?.claim).toBeNull();
      });
    });

    describe('claims board history', () => {
      it('lists changes since a time, newest first, each id once', async () => {
        await store.recordClaimChange(change('a', 10));
        await store.recordClaimChange(change('c', 30));
        await store.recordClaimChange(change('b', 20));
        await store.recordClaimChange(change('b', 20));
        expect((await store.claimChanges(at(0))).map((c) => c.id)).toEqual(['c', 'b', 'a']);
        expect((await store.claimChanges(at(20))).map((c) => c.id)).toEqual(['c', 'b']);
        expect(await store.claimChanges(at(31))).toEqual([]);
        expect((await store.claimChanges(at(0)))[0]).toEqual(change('c', 30));
      });

      it('keeps only the newest changes once the history is full', async () => {
        for (let i = 0; i < CLAIM_CHANGES_CAP + 3; i++) {
          await store.recordClaimChange(change(`c${i}`, i));
        }
        const kept = await store.claimChanges(at(0));
        expect(kept).toHaveLength(CLAIM_CHANGES_CAP);
        expect(kept[0]!.id).toBe(`c${CLAIM_CHANGES_CAP + 2}`);
        expect(kept.at(-1)!.id).toBe('c3');
      });
    });
  });
}

function change(id: string, seconds: number): ClaimChange {
  return {
    id,
    kind: 'expiry',
    at: at(seconds).toISOString(),
    installationId: 7,
    repo: 'acme/widgets',
    number: 1,
    title: 'Issue 1',
    url: 'https://github.com/acme/widgets/issues/1',
    commentId: 101,
    author: 'alice',
    session: 'h:5f4dcc3b5aa7',
  };
}
