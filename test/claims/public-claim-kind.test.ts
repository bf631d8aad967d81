import { describe, expect, it } from 'vitest';
import { PublicClaim, personClaimFieldsOf, publicClaimOf } from '../../src/claims/public-claim.js';

const AGENT = {
  issue: 'acme/widgets#12',
  commentId: 1234,
  url: 'https://github.com/acme/widgets/issues/12#issuecomment-1234',
  author: 'alice',
  session: 'h:5f4dcc3b5aa7',
  lane: 'h:098f6bcd4621',
  branch: 'feat/x',
  stage: 'implementing',
  started: '2030-01-01T00:00:00Z',
  updated: '2030-01-01T01:00:00Z',
  heartbeat: '2030-01-01T01:00:00Z',
  staleAt: '2030-01-01T07:00:01Z',
  assignee: 'claim',
};

describe('the claim object of both kinds (docs/protocol.md §8, §16)', () => {
  it('reads a record an older version wrote, without kind, as an agent’s, and writes it back with kind', () => {
    const read = PublicClaim.parse(AGENT);
    expect(read.kind).toBe('agent');
    const again = publicClaimOf(read.issue, read);
    expect(again).toEqual({ ...AGENT, kind: 'agent' });
    expect(Object.keys(again).slice(0, 3)).toEqual(['issue', 'kind', 'commentId']);
    expect(PublicClaim.parse(JSON.parse(JSON.stringify(again)))).toEqual(again);
  });

  it('a person’s claim has no comment, session, lane or branch, and may never go stale', () => {
    const holder = {
      kind: 'person' as const,
      author: 'bob',
      started: new Date('2030-01-01T00:00:00Z'),
      heartbeat: new Date('2030-01-02T00:00:00Z'),
      assignedBy: 'maintainer',
      pinned: false,
      expires: true,
      url: 'https://github.com/acme/widgets/issues/12',
    };
    const day = 24 * 3_600_000;
    const claim = publicClaimOf('acme/widgets#12', personClaimFieldsOf(holder, 14 * day));
    expect(claim).toEqual({
      issue: 'acme/widgets#12',
      kind: 'person',
      commentId: null,
      url: 'https://github.com/acme/widgets/issues/12',
      author: 'bob',
      session: null,
      lane: null,
      branch: null,
      stage: 'claimed',
      started: '2030-01-01T00:00:00Z',
      updated: '2030-01-02T00:00:00Z',
      heartbeat: '2030-01-02T00:00:00Z',
      staleAt: '2030-01-16T00:00:01Z',
      assignee: null,
    });
    expect(PublicClaim.parse(JSON.parse(JSON.stringify(claim)))).toEqual(claim);
    const pinned = personClaimFieldsOf({ ...holder, pinned: true, expires: false }, 14 * day);
    expect(pinned.staleAt).toBeNull();
  });

  it('refuses a person’s claim that names a session, and an agent’s without one', () => {
    expect(PublicClaim.safeParse({ ...AGENT, kind: 'person' }).success).toBe(false);
    const { session: _, ...noSession } = AGENT;
    expect(PublicClaim.safeParse(noSession).success).toBe(false);
  });
});
