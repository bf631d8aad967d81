import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import type { DecideConfig } from '../../src/claims/decide-config.js';
import { graceHold } from '../../src/claims/grace.js';
import { judgeAttempt } from '../../src/claims/judge-attempt.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { Action } from '../../src/claims/plan.js';
import { trustedClaims } from '../../src/claims/trusted-claims.js';
import type { ThreadComment } from '../../src/claims/types.js';
import { claim, DEFAULT_CONFIG, facts, HOUR, MINUTE, NOW } from '../helpers/thread-builder.js';
import { claimState } from './plan-state.js';

const IN_PROGRESS = 'status:in-progress';
/** A six-hour window and one hour of grace (docs/protocol.md §17). */
const GRACE: DecideConfig = { ...DEFAULT_CONFIG, graceMs: HOUR };
/** Alice's claim, gone stale 20 minutes ago: in its grace until 40 minutes from now. */
const inGrace = () =>
  claim({ id: 1, by: 'alice', session: 's-alice', updatedAgoMs: 6 * HOUR + 20 * MINUTE });

function finalised(actions: readonly Action[]) {
  return actions.flatMap((a) =>
    a.kind === 'finalise'
      ? [{ id: a.commentId, outcome: a.outcome, reason: a.reason, body: a.body }]
      : [],
  );
}

describe('decide: grace for the owner (docs/protocol.md §17)', () => {
  it('a stale claim in its grace keeps the issue, its labels and its assignee', () => {
    const plan = decide(
      facts({ comments: [inGrace()], labels: [IN_PROGRESS], assignees: ['alice'] }),
      GRACE,
      NOW,
    );
    expect(plan.actions).toEqual([]);
    expect(plan.holder).toMatchObject({ kind: 'agent', commentId: 1 });
    const until = new Date(NOW.getTime() + 40 * MINUTE + 1);
    expect(plan.holder).toMatchObject({ graceUntil: until });
    // The sweep comes back when the grace ends.
    expect(plan.deadline).toEqual(until);
  });

  it('another session’s claim in the grace is finalised, naming the owner and the end', () => {
    const bob = claim({ id: 2, by: 'bob', session: 's-bob' });
    const plan = decide(
      facts({ comments: [inGrace(), bob], labels: [IN_PROGRESS], assignees: ['alice'] }),
      GRACE,
      NOW,
    );
    const [only, ...rest] = finalised(plan.actions);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ id: 2, outcome: 'abandoned', reason: 'grace' });
    expect(only!.body).toContain("in grace for @alice's session until 2026-11-30T12:40:01Z");
    expect(plan.holder).toMatchObject({ commentId: 1 });
  });

  it('the same author’s other session is another session', () => {
    const other = claim({ id: 2, by: 'alice', session: 's-other' });
    const plan = decide(facts({ comments: [inGrace(), other] }), GRACE, NOW);
    expect(finalised(plan.actions)).toMatchObject([{ id: 2, reason: 'grace' }]);
  });

  it('a new claim of the same author and session takes over: the stale one is handed over', () => {
    const again = claim({ id: 2, by: 'alice', session: 's-alice' });
    const plan = decide(
      facts({ comments: [inGrace(), again], labels: [IN_PROGRESS], assignees: ['alice'] }),
      GRACE,
      NOW,
    );
    const [only, ...rest] = finalised(plan.actions);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ id: 1, outcome: 'handed-over', reason: 'reclaimed' });
    expect(parseClaimMarker(only!.body)).toMatchObject({
      stage: 'released',
      outcome: 'handed-over',
    });
    expect(plan.holder).toMatchObject({ commentId: 2 });
    expect(plan.holder).not.toHaveProperty('graceUntil');
    expect(plan.deadline).toEqual(new Date(NOW.getTime() + 6 * HOUR + 1));
  });

  it('after the grace the stale claim is finalised as stale, as without grace', () => {
    const old = claim({ id: 1, by: 'alice', session: 's-alice', updatedAgoMs: 7 * HOUR + 1000 });
    const plan = decide(
      facts({ comments: [old], labels: [IN_PROGRESS], assignees: ['alice'] }),
      GRACE,
      NOW,
    );
    expect(finalised(plan.actions)).toMatchObject([
      { id: 1, outcome: 'abandoned', reason: 'stale' },
    ]);
    expect(plan.holder).toBeNull();
    expect(plan.deadline).toBeNull();
  });

  it('grace 0 is part one exactly: the stale claim is finalised at once', () => {
    const comments = [inGrace(), claim({ id: 2, by: 'bob', session: 's-bob' })];
    const off = decide(facts({ comments }), { ...DEFAULT_CONFIG, graceMs: 0 }, NOW);
    expect(off).toEqual(decide(facts({ comments }), DEFAULT_CONFIG, NOW));
    expect(finalised(off.actions)).toMatchObject([{ id: 1, reason: 'stale' }]);
    expect(off.holder).toMatchObject({ commentId: 2 });
  });

  it('a live claim older than the stale one holds; the stale one has no grace over it', () => {
    const live = claim({ id: 1, by: 'bob', session: 's-bob' });
    const stale = claim({
      id: 2,
      by: 'alice',
      session: 's-alice',
      updatedAgoMs: 6 * HOUR + MINUTE,
    });
    const plan = decide(facts({ comments: [live, stale] }), GRACE, NOW);
    expect(plan.holder).toMatchObject({ commentId: 1 });
    expect(finalised(plan.actions)).toMatchObject([{ id: 2, reason: 'stale' }]);
  });

  it('a claim over the clock-skew cap gets no grace', () => {
    const skewed = claim({ id: 1, updatedAgoMs: -7 * HOUR, editedAgoMs: 0 });
    const plan = decide(facts({ comments: [skewed] }), GRACE, NOW);
    expect(finalised(plan.actions)).toMatchObject([{ id: 1, reason: 'stale' }]);
  });

  it('on a closed issue a stale claim is finalised as before', () => {
    const plan = decide(
      facts({ open: false, stateReason: 'completed', comments: [inGrace()] }),
      GRACE,
      NOW,
    );
    expect(finalised(plan.actions)).toMatchObject([{ id: 1, reason: 'stale' }]);
    expect(plan.holder).toBeNull();
  });
});

describe('judgeAttempt in a grace (docs/protocol.md §17)', () => {
  const state = (comments: ThreadComment[]) => ({ ...claimState({ comments }), config: GRACE });
  const own = (session: string) => (c: { marker: { session: string } }) =>
    c.marker.session === session;
  const ask = (login: string, session: string) => ({ session, lane: 'l', branch: 'b', login });

  it('another session is refused with the end of the grace', () => {
    const decision = judgeAttempt(
      state([inGrace()]),
      ask('bob', 's-bob'),
      own('s-bob'),
      (_k, v) => v,
      NOW,
    );
    expect(decision).toMatchObject({ kind: 'in-grace', hold: { claim: { comment: { id: 1 } } } });
  });

  it('the same session under another login is refused too', () => {
    const decision = judgeAttempt(
      state([inGrace()]),
      ask('mallory', 's-alice'),
      own('s-alice'),
      (_k, v) => v,
      NOW,
    );
    expect(decision.kind).toBe('in-grace');
  });

  it('the owner’s session posts a new claim that takes the stale one over', () => {
    const decision = judgeAttempt(
      state([inGrace()]),
      ask('alice', 's-alice'),
      own('s-alice'),
      (_k, v) => v,
      NOW,
    );
    expect(decision.kind).toBe('post');
    if (decision.kind !== 'post') return;
    expect(decision.reclaimed?.comment.id).toBe(1);
    expect(decision.stale.map((c) => c.comment.id)).toEqual([1]);
  });
});

describe('grace, as a property (docs/protocol.md §17)', () => {
  const sessions = ['s-alice', 's-bob'] as const;
  const logins = ['alice', 'bob'] as const;
  const arbitraryClaim = fc.record({
    by: fc.constantFrom(...logins),
    session: fc.constantFrom(...sessions),
    // From fresh to well past the window and the grace.
    updatedAgoMs: fc.integer({ min: 0, max: 8 * HOUR }).map((ms) => ms - (ms % 1000)),
  });

  it('within its grace only the same author and session take an issue over; after it the stale claim is always finalised', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 6 * HOUR + 1000, max: 8 * HOUR }).map((ms) => ms - (ms % 1000)),
        fc.array(arbitraryClaim, { maxLength: 4 }),
        (firstAgo, later) => {
          const first = claim({ id: 1, by: 'alice', session: 's-alice', updatedAgoMs: firstAgo });
          const comments = [
            first,
            ...later.map((spec, i) =>
              claim({ id: i + 2, ...spec, updatedAgoMs: Math.min(spec.updatedAgoMs, 6 * HOUR) }),
            ),
          ];
          const plan = decide(facts({ comments }), GRACE, NOW);
          const done = new Map(finalised(plan.actions).map((f) => [f.id, f]));
          const inItsGrace = firstAgo <= 7 * HOUR;
          if (!inItsGrace) {
            expect(done.get(1)?.reason).toBe('stale');
            return;
          }
          const takeover = comments.find(
            (c) =>
              c.id > 1 && c.author === 'alice' && parseClaimMarker(c.body)?.session === 's-alice',
          );
          if (takeover === undefined) {
            expect(plan.holder).toMatchObject({ commentId: 1 });
            expect(done.has(1)).toBe(false);
            for (const c of comments.slice(1)) expect(done.get(c.id)?.reason).toBe('grace');
          } else {
            expect(done.get(1)).toMatchObject({ outcome: 'handed-over', reason: 'reclaimed' });
            expect(plan.holder).toMatchObject({ commentId: takeover.id });
            for (const c of comments.slice(1)) {
              if (c.id < takeover.id) expect(done.get(c.id)?.reason).toBe('grace');
            }
          }
          // Every reader agrees: graceHold names the same claim decide keeps.
          const hold = graceHold(trustedClaims(comments, []), { open: true }, GRACE, NOW);
          expect(hold?.claim.comment.id).toBe(1);
        },
      ),
    );
  });
});
