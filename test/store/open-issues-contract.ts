import { describe, expect, it } from 'vitest';
import type { IndexedClaim, IndexedIssue, OpenIssues } from '../../src/store/open-issues.js';
import type { Store } from '../../src/store/store.js';
import { issue, type MakeStore, useStore } from './contract-fixture.js';

/** What every {@link OpenIssues} does (memory and Redis): the app relies on it. */
export function describeOpenIssuesContract(
  name: string,
  make: MakeStore<OpenIssues & Pick<Store, 'forgetIssue'>>,
): void {
  describe(`${name} (OpenIssues contract)`, () => {
    let store: OpenIssues & Pick<Store, 'forgetIssue'>;
    useStore(make, (made) => {
      store = made;
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
      const claim = {
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
      } satisfies IndexedClaim;
      /** A later edit of the claim's comment, as a heartbeat webhook reports it. */
      const beat = (at: string, overrides: Partial<typeof claim> = {}): IndexedClaim => ({
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

      it('keeps a waitlist with a claim or alone, and a heartbeat keeps it (docs/protocol.md §16)', async () => {
        await store.putOpenIssue(open(1, '2030-01-01T00:00:00Z'));
        await store.putOpenIssue(open(2, '2030-01-01T00:00:00Z'));
        await store.setIssueClaim(issue(1), claim, ['carol', 'dave']);
        await store.setIssueClaim(issue(2), null, ['erin']);
        expect((await byNumber()).map((e) => [e.claim?.author ?? null, e.waitlist])).toEqual([
          ['alice', ['carol', 'dave']],
          [null, ['erin']],
        ]);
        expect(await store.issueClaim(issue(2))).toBeNull();
        const held = await store.issueClaim(issue(1));
        expect(
          await store.renewIssueClaim(issue(1), {
            ...beat('2030-01-01T00:10:00Z'),
            waitlist: held?.waitlist ?? [],
          }),
        ).toBe(true);
        expect((await byNumber())[0]?.waitlist).toEqual(['carol', 'dave']);
        await store.setIssueClaim(issue(2), null, []);
        expect((await byNumber())[1]).toEqual({
          issue: open(2, '2030-01-01T00:00:00Z'),
          claim: null,
        });
      });

      it('keeps a person’s claim, which no heartbeat webhook renews', async () => {
        const person: IndexedClaim = {
          kind: 'person',
          commentId: null,
          url: 'https://github.com/acme/widgets/issues/1',
          author: 'bob',
          session: null,
          lane: null,
          branch: null,
          stage: 'claimed',
          started: '2030-01-01T00:00:00Z',
          updated: '2030-01-01T00:00:00Z',
          heartbeat: '2030-01-01T00:00:00Z',
          staleAt: null,
          commentUpdatedAt: '2030-01-01T00:00:00Z',
        };
        await store.putOpenIssue(open(1, '2030-01-01T00:00:00Z'));
        await store.setIssueClaim(issue(1), person);
        expect(await store.issueClaim(issue(1))).toEqual(person);
        expect(
          await store.renewIssueClaim(issue(1), {
            ...person,
            heartbeat: '2030-01-02T00:00:00Z',
            commentUpdatedAt: '2030-01-02T00:00:00Z',
          }),
        ).toBe(false);
        expect((await byNumber())[0]?.claim).toEqual(person);
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
  });
}
