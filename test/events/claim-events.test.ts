import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import type { IssueFacts } from '../../src/claims/issue-facts.js';
import type { Plan } from '../../src/claims/plan.js';
import { claimEvents } from '../../src/events/claim-events.js';
import { claim, DEFAULT_CONFIG, facts, HOUR, NOW } from '../helpers/thread-builder.js';

const KEY = { installationId: 7, owner: 'acme', repo: 'widgets', number: 12 };

/** The events of one reconcile of `issue`, after a reconcile that recorded `previous`. */
function eventsOf(issue: IssueFacts, previous: number | null, plan?: Plan) {
  return claimEvents({
    key: KEY,
    comments: issue.comments,
    plan: plan ?? decide(issue, DEFAULT_CONFIG, NOW),
    previousHolder: previous,
    now: NOW,
  });
}

const summary = (issue: IssueFacts, previous: number | null, plan?: Plan) =>
  eventsOf(issue, previous, plan).map((e) => `${e.type} ${e.claim.commentId}`);

describe('the claim changes a reconcile tells about (docs/protocol.md §13)', () => {
  it.each([
    ['a first claim is held', facts({ comments: [claim({ id: 1 })] }), null, ['claim.held 1']],
    ['a holder seen before is no change', facts({ comments: [claim({ id: 1 })] }), 1, []],
    [
      'a younger claim loses',
      facts({ comments: [claim({ id: 1 }), claim({ id: 2, by: 'bob' })] }),
      1,
      ['claim.lost 2'],
    ],
    [
      'a stale holder replaced by the next claim: expired, then taken over',
      facts({ comments: [claim({ id: 1, updatedAgoMs: 7 * HOUR }), claim({ id: 2, by: 'bob' })] }),
      1,
      ['claim.expired 1', 'claim.taken-over 2'],
    ],
    [
      'a holder released by its session',
      facts({ comments: [claim({ id: 1, stage: 'released', outcome: 'landed' })] }),
      1,
      ['claim.released 1'],
    ],
    ['a holder whose comment was deleted', facts({ comments: [] }), 1, ['claim.released 1']],
    [
      'a holder whose issue was closed',
      facts({ open: false, stateReason: 'completed', comments: [claim({ id: 1 })] }),
      1,
      ['claim.released 1'],
    ],
  ])('%s', (_name, issue, previous, expected) => {
    expect(summary(issue, previous)).toEqual(expected);
  });

  it('an administrative release is its own type', () => {
    const issue = facts({ comments: [claim({ id: 1 })] });
    const plan: Plan = {
      holder: null,
      deadline: null,
      waitlist: [],
      actions: [
        {
          kind: 'finalise',
          commentId: 1,
          body: '',
          reason: 'administrative',
          outcome: 'abandoned',
        },
      ],
    };
    expect(summary(issue, 1, plan)).toEqual(['claim.administratively-released 1']);
  });

  it('a loser names the holder; a deleted holder is named by its comment id alone', () => {
    const lost = eventsOf(facts({ comments: [claim({ id: 1 }), claim({ id: 2, by: 'bob' })] }), 1);
    expect(lost[0]).toMatchObject({
      repository: 'acme/widgets',
      issue: 12,
      installation: 7,
      claim: { commentId: 2, author: 'bob' },
      holder: { commentId: 1, author: 'alice' },
    });
    expect(eventsOf(facts({ comments: [] }), 1)[0]).toMatchObject({
      claim: { commentId: 1 },
      reason: 'its comment was deleted',
    });
  });

  it('the same change derived twice has one id; a different change another', () => {
    const issue = facts({ comments: [claim({ id: 1 })] });
    const [first] = eventsOf(issue, null);
    const [again] = eventsOf(issue, null);
    expect(again?.id).toBe(first?.id);
    const [heartbeat] = eventsOf(facts({ comments: [claim({ id: 1, updatedAgoMs: HOUR })] }), null);
    expect(heartbeat?.id).not.toBe(first?.id);
    const [lost] = eventsOf(facts({ comments: [claim({ id: 0 }), claim({ id: 1 })] }), 0);
    expect(lost?.id).not.toBe(first?.id);
  });
});
