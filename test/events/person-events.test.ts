import { describe, expect, it } from 'vitest';
import type { PersonHolder, Plan } from '../../src/claims/plan.js';
import { claimEvents } from '../../src/events/claim-events.js';
import { holderRef } from '../../src/events/holder-ref.js';

const KEY = { installationId: 7, owner: 'acme', repo: 'widgets', number: 12 };
const NOW = new Date('2030-01-10T00:00:00Z');
const BOB: PersonHolder = {
  kind: 'person',
  author: 'Bob',
  started: new Date('2030-01-01T00:00:00Z'),
  heartbeat: new Date('2030-01-02T00:00:00Z'),
  assignedBy: 'maintainer',
  pinned: false,
  expires: true,
  url: 'https://github.com/acme/widgets/issues/12',
};
const plan = (holder: Plan['holder'], actions: Plan['actions'] = []): Plan => ({
  actions,
  holder,
  deadline: null,
  waitlist: [],
});

describe('claim events of people’s claims (docs/protocol.md §13, §16)', () => {
  it('a person who comes to hold the issue is claim.held with kind person, told once', () => {
    const [held] = claimEvents({
      key: KEY,
      comments: [],
      plan: plan(BOB),
      previousHolder: null,
      now: NOW,
    });
    expect(held).toMatchObject({
      type: 'claim.held',
      claim: { kind: 'person', commentId: null, author: 'Bob', started: '2030-01-01T00:00:00Z' },
    });
    const again = claimEvents({
      key: KEY,
      comments: [],
      plan: plan(BOB),
      previousHolder: holderRef(BOB),
      now: NOW,
    });
    expect(again).toEqual([]);
  });

  it('a person unassigned is released; unassigned with the expiry note, expired', () => {
    const previousHolder = holderRef(BOB);
    const [released] = claimEvents({
      key: KEY,
      comments: [],
      plan: plan(null),
      previousHolder,
      now: NOW,
    });
    expect(released).toMatchObject({
      type: 'claim.released',
      claim: { kind: 'person', author: 'bob' },
    });
    const expiry = plan(null, [
      { kind: 'unassign', login: 'Bob' },
      {
        kind: 'post-note',
        forCommentId: 0,
        body: '<!-- claim-warden:people expired=Bob since=2030-01-01T00:00:00Z -->\n@Bob …',
      },
    ]);
    const [expired] = claimEvents({
      key: KEY,
      comments: [],
      plan: expiry,
      previousHolder,
      now: NOW,
    });
    expect(expired).toMatchObject({ type: 'claim.expired', claim: { kind: 'person' } });
    expect(expired!.id).not.toBe(released!.id);
  });

  it('an agent’s claim finalised for the person is lost to that person', () => {
    const events = claimEvents({
      key: KEY,
      comments: [],
      plan: plan(BOB, [
        { kind: 'finalise', commentId: 5, body: '…', reason: 'person', outcome: 'abandoned' },
      ]),
      previousHolder: 5,
      now: NOW,
    });
    expect(events.map((e) => [e.type, e.claim.kind])).toEqual([
      ['claim.lost', 'agent'],
      ['claim.held', 'person'],
    ]);
    expect(events[0]!.holder).toMatchObject({ kind: 'person', author: 'Bob' });
  });
});
