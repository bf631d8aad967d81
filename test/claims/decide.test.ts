import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import { expiryNoteTag } from '../../src/claims/expiry-note.js';
import { agentHolder } from '../../src/claims/holder-summary.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import type { Action } from '../../src/claims/plan.js';
import {
  APP_LOGIN,
  claim,
  DEFAULT_CONFIG,
  facts,
  HOUR,
  NOW,
  remark,
} from '../helpers/thread-builder.js';
import { kinds } from './plan-state.js';

const IN_PROGRESS = 'status:in-progress';
const BLOCKED = 'status:blocked';

function finalisedMarker(actions: readonly Action[], commentId: number) {
  const action = actions.find((a) => a.kind === 'finalise' && a.commentId === commentId);
  if (action?.kind !== 'finalise') throw new Error(`comment ${commentId} was not finalised`);
  return { marker: parseClaimMarker(action.body), body: action.body };
}

describe('decide: a holder exists (docs/protocol.md §4 row 1)', () => {
  it('labels the issue and assigns the holder’s author', () => {
    const plan = decide(facts({ comments: [claim({ id: 1, by: 'alice' })] }), DEFAULT_CONFIG, NOW);
    expect(kinds(plan.actions)).toEqual([`add-label ${IN_PROGRESS}`, 'assign alice']);
    expect(plan.holder).toMatchObject({ commentId: 1, author: 'alice', session: 'session-1' });
  });

  it('writes nothing when labels and assignee are already true', () => {
    const plan = decide(
      facts({ comments: [claim({ id: 1 })], labels: [IN_PROGRESS], assignees: ['alice'] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.actions).toEqual([]);
  });

  it('adds status:blocked while the holder is blocked, and removes it after', () => {
    const blocked = decide(
      facts({
        comments: [claim({ id: 1, stage: 'blocked' })],
        labels: [IN_PROGRESS],
        assignees: ['alice'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(blocked.actions)).toEqual([`add-label ${BLOCKED}`]);
    const unblocked = decide(
      facts({
        comments: [claim({ id: 1, stage: 'review' })],
        labels: [IN_PROGRESS, BLOCKED],
        assignees: ['alice'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(unblocked.actions)).toEqual([`remove-label ${BLOCKED}`]);
  });

  it('compares label names and logins case-insensitively, as GitHub does', () => {
    const plan = decide(
      facts({
        comments: [claim({ id: 1, by: 'Alice' })],
        labels: ['Status:In-Progress'],
        assignees: ['alice'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.actions).toEqual([]);
  });

  it('does not assign when the repository config says assign: false', () => {
    const plan = decide(
      facts({ comments: [claim({ id: 1 })] }),
      { ...DEFAULT_CONFIG, assign: false },
      NOW,
    );
    expect(kinds(plan.actions)).toEqual([`add-label ${IN_PROGRESS}`]);
  });

  it('uses the label names of the repository config', () => {
    const config = { ...DEFAULT_CONFIG, labels: { inProgress: 'wip', blocked: 'stuck' } };
    const plan = decide(facts({ comments: [claim({ id: 1, stage: 'blocked' })] }), config, NOW);
    expect(kinds(plan.actions)).toEqual(['add-label wip', 'add-label stuck', 'assign alice']);
  });

  it('sets the deadline to when the holder turns stale', () => {
    const plan = decide(
      facts({ comments: [claim({ id: 1, updatedAgoMs: HOUR })] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.deadline?.getTime()).toBe(NOW.getTime() + 5 * HOUR + 1);
  });
});

describe('decide: a live claim that is not the holder (docs/protocol.md §4 row 2)', () => {
  it('finalises the newer claim as abandoned, naming the holder’s comment and session', () => {
    const plan = decide(
      facts({
        comments: [
          claim({ id: 7, by: 'bob', session: 'h:0123456789ab' }),
          claim({ id: 5, by: 'alice' }),
        ],
        labels: [IN_PROGRESS],
        assignees: ['alice'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual(['finalise 7 abandoned (lost)']);
    const { marker, body } = finalisedMarker(plan.actions, 7);
    expect(marker).toMatchObject({
      stage: 'released',
      outcome: 'abandoned',
      session: 'h:0123456789ab',
    });
    expect(marker?.updated).toEqual(NOW);
    expect(body).toContain('comment 5');
    expect(body).toContain('session-5');
    expect(agentHolder(plan.holder)?.commentId).toBe(5);
  });

  it('keeps the other keys of the finalised marker', () => {
    const plan = decide(
      facts({
        comments: [claim({ id: 1 }), claim({ id: 2, stage: 'review', assignee: 'before' })],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    const before = parseClaimMarker(claim({ id: 2, stage: 'review', assignee: 'before' }).body)!;
    const { marker } = finalisedMarker(plan.actions, 2);
    expect(marker).toEqual({ ...before, stage: 'released', outcome: 'abandoned', updated: NOW });
  });
});

describe('decide: a stale, unreleased claim (docs/protocol.md §4 row 3)', () => {
  const stale = claim({ id: 3, by: 'bob', updatedAgoMs: 7 * HOUR });

  it('is finalised with the reason "stale since T" and one note mentions its author', () => {
    const plan = decide(
      facts({ comments: [stale], labels: [IN_PROGRESS], assignees: ['bob'] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual([
      'note for 3',
      'finalise 3 abandoned (stale)',
      `remove-label ${IN_PROGRESS}`,
      'unassign bob',
    ]);
    expect(finalisedMarker(plan.actions, 3).body).toContain('stale since 2026-11-30T11:00:00Z');
    const note = plan.actions[0];
    expect(note?.kind === 'post-note' && note.body).toContain('@bob');
  });

  it('its note also mentions the logins and teams of notify, the author once', () => {
    const plan = decide(
      facts({ comments: [stale] }),
      { ...DEFAULT_CONFIG, notify: ['carol', 'acme/maintainers', 'BOB'] },
      NOW,
    );
    const note = plan.actions[0];
    const body = note?.kind === 'post-note' ? note.body : '';
    expect(body.split('\n').at(-1)).toBe('cc @carol @acme/maintainers');
    expect(body.match(/@bob/gi)).toHaveLength(1);
  });

  it.each([
    ['exactly one window ahead holds', 0, ['add-label status:in-progress', 'assign bob']],
    ['one second more is finalised as stale', 1000, ['note for 4', 'finalise 4 abandoned (stale)']],
  ])(
    'a marker whose updated lies ahead of now, though GitHub recorded it just now: %s (clock-skew cap)',
    (_name, extraMs, expected) => {
      const ahead = claim({ id: 4, by: 'bob', updatedAgoMs: -6 * HOUR - extraMs, editedAgoMs: 0 });
      const plan = decide(facts({ comments: [ahead] }), DEFAULT_CONFIG, NOW);
      expect(kinds(plan.actions)).toEqual(expected);
      expect(agentHolder(plan.holder)?.commentId ?? null).toBe(extraMs === 0 ? 4 : null);
    },
  );

  it('a claim over the clock-skew cap is "stale since" GitHub recorded it', () => {
    const ahead = claim({ id: 4, by: 'bob', updatedAgoMs: -7 * HOUR, editedAgoMs: HOUR });
    const plan = decide(facts({ comments: [ahead] }), DEFAULT_CONFIG, NOW);
    expect(finalisedMarker(plan.actions, 4).body).toContain('stale since 2026-11-30T11:00:00Z');
  });

  it('posts no second note when the app already posted one for that comment', () => {
    const note = { ...remark(9, `${expiryNoteTag(3)}\n@bob ...`, APP_LOGIN) };
    const plan = decide(facts({ comments: [stale, note] }), DEFAULT_CONFIG, NOW);
    expect(kinds(plan.actions)).toEqual(['finalise 3 abandoned (stale)']);
  });

  it('does not trust a note that someone else wrote with the app’s tag', () => {
    const forged = remark(9, `${expiryNoteTag(3)}\n@bob ...`, 'mallory');
    const plan = decide(facts({ comments: [stale, forged] }), DEFAULT_CONFIG, NOW);
    expect(kinds(plan.actions)).toContain('note for 3');
  });

  it('posts no note when notifyOnExpiry is false', () => {
    const plan = decide(
      facts({ comments: [stale] }),
      { ...DEFAULT_CONFIG, notifyOnExpiry: false },
      NOW,
    );
    expect(kinds(plan.actions)).toEqual(['finalise 3 abandoned (stale)']);
  });

  it('lets the next live claim hold once the older one is stale', () => {
    const plan = decide(
      facts({ comments: [stale, claim({ id: 4, by: 'carol' })] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(agentHolder(plan.holder)?.commentId).toBe(4);
    expect(kinds(plan.actions)).toEqual([
      'note for 3',
      'finalise 3 abandoned (stale)',
      `add-label ${IN_PROGRESS}`,
      'assign carol',
    ]);
  });
});

describe('decide: no holder (docs/protocol.md §4 row 4)', () => {
  it('removes both status labels and unassigns an author whose released claim says assignee=claim', () => {
    const plan = decide(
      facts({
        comments: [claim({ id: 1, by: 'alice', stage: 'released', outcome: 'landed' })],
        labels: [IN_PROGRESS, BLOCKED, 'bug'],
        assignees: ['alice', 'dave'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual([
      `remove-label ${IN_PROGRESS}`,
      `remove-label ${BLOCKED}`,
      'unassign alice',
    ]);
  });

  it('keeps an author whose released claim says assignee=before, or says nothing', () => {
    const plan = decide(
      facts({
        comments: [
          claim({ id: 1, by: 'alice', stage: 'released', assignee: 'before' }),
          claim({ id: 2, by: 'bob', stage: 'released', assignee: null }),
        ],
        assignees: ['alice', 'bob'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.actions).toEqual([]);
  });

  it('keeps the holder assigned even when an older claim of theirs said assignee=claim', () => {
    const plan = decide(
      facts({
        comments: [claim({ id: 1, stage: 'released' }), claim({ id: 2, assignee: 'before' })],
        labels: [IN_PROGRESS],
        assignees: ['alice'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.actions).toEqual([]);
  });

  it('writes nothing on an issue without claims or status labels', () => {
    const plan = decide(
      facts({ comments: [remark(1, 'hello')], assignees: ['dave'] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan).toEqual({ actions: [], holder: null, deadline: null, waitlist: [] });
  });
});

describe('decide: an issue closed with a live claim (docs/protocol.md §4 row 5)', () => {
  it.each([
    ['completed', 'landed'],
    ['not_planned', 'abandoned'],
    [null, 'abandoned'],
  ])('closed as %s finalises the holder as %s', (stateReason, outcome) => {
    const plan = decide(
      facts({
        open: false,
        stateReason,
        comments: [claim({ id: 1 }), claim({ id: 2, by: 'bob' })],
        labels: [IN_PROGRESS],
        assignees: ['alice'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual([
      `finalise 1 ${outcome} (closed)`,
      'finalise 2 abandoned (lost)',
      `remove-label ${IN_PROGRESS}`,
      'unassign alice',
    ]);
    expect(plan.holder).toBeNull();
    expect(plan.deadline).toBeNull();
  });

  it('posts no expiry note on a closed issue', () => {
    const plan = decide(
      facts({
        open: false,
        comments: [claim({ id: 1, updatedAgoMs: 9 * HOUR, assignee: 'before' })],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual(['finalise 1 abandoned (stale)']);
  });
});

describe('decide: the holder’s comment deleted (docs/protocol.md §4 row 6)', () => {
  const deleted = claim({ id: 1, by: 'alice' });
  const hint = {
    kind: 'comment-deleted' as const,
    commentId: 1,
    author: 'alice',
    authorAssociation: 'COLLABORATOR',
    body: deleted.body,
    at: NOW.toISOString(),
  };

  it('frees the issue and unassigns the deleted marker’s assignee=claim author', () => {
    const plan = decide(
      facts({ labels: [IN_PROGRESS], assignees: ['alice'], hints: [hint] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual([`remove-label ${IN_PROGRESS}`, 'unassign alice']);
  });

  it('lets the next live claim hold', () => {
    const plan = decide(
      facts({
        comments: [claim({ id: 2, by: 'bob' })],
        labels: [IN_PROGRESS],
        assignees: ['alice'],
        hints: [hint],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual(['unassign alice', 'assign bob']);
  });

  it('ignores a deleted marker from an untrusted author', () => {
    const plan = decide(
      facts({ assignees: ['alice'], hints: [{ ...hint, authorAssociation: 'NONE' }] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.actions).toEqual([]);
  });
});

describe('decide: administrative release (docs/protocol.md §4 row 7)', () => {
  const removed = (at: Date, by = 'maria') => ({
    kind: 'label-removed' as const,
    label: IN_PROGRESS,
    by,
    at: at.toISOString(),
  });

  it('finalises the holder as abandoned, naming who removed the label', () => {
    const plan = decide(
      facts({
        comments: [claim({ id: 1, postedAgoMs: HOUR })],
        assignees: ['alice'],
        hints: [removed(NOW)],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual([
      'finalise 1 abandoned (administrative)',
      'unassign alice',
    ]);
    expect(finalisedMarker(plan.actions, 1).body).toContain('@maria');
    expect(plan.holder).toBeNull();
  });

  it('does not release a claim posted after the label was removed (late delivery)', () => {
    const plan = decide(
      facts({
        comments: [claim({ id: 1, postedAgoMs: 0 })],
        assignees: ['alice'],
        hints: [removed(new Date(NOW.getTime() - HOUR))],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual([`add-label ${IN_PROGRESS}`]);
  });

  it('does nothing when the label is back by the time the issue is reconciled', () => {
    const plan = decide(
      facts({
        comments: [claim({ id: 1, postedAgoMs: HOUR })],
        labels: [IN_PROGRESS],
        assignees: ['alice'],
        hints: [removed(NOW)],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.actions).toEqual([]);
  });
});

describe('decide: a status label a person added (docs/protocol.md §4 row 8)', () => {
  const added = {
    kind: 'label-added' as const,
    label: BLOCKED,
    by: 'maria',
    at: NOW.toISOString(),
  };
  const labelledFacts = facts({
    comments: [claim({ id: 1, stage: 'implementing' })],
    labels: [IN_PROGRESS, BLOCKED],
    assignees: ['alice'],
    hints: [added],
  });

  it('is removed again when enforceLabels is true', () => {
    expect(kinds(decide(labelledFacts, DEFAULT_CONFIG, NOW).actions)).toEqual([
      `remove-label ${BLOCKED}`,
    ]);
  });

  it('is left alone when enforceLabels is false', () => {
    expect(decide(labelledFacts, { ...DEFAULT_CONFIG, enforceLabels: false }, NOW).actions).toEqual(
      [],
    );
  });

  it('removes status:in-progress from an issue with no claim at all', () => {
    const plan = decide(facts({ labels: [IN_PROGRESS] }), DEFAULT_CONFIG, NOW);
    expect(kinds(plan.actions)).toEqual([`remove-label ${IN_PROGRESS}`]);
  });
});

describe('decide: trust (docs/protocol.md §2)', () => {
  it.each(['NONE', 'CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'FIRST_TIMER', 'MANNEQUIN'])(
    'a marker from a %s author changes nothing',
    (association) => {
      const plan = decide(
        facts({ comments: [claim({ id: 1, by: 'mallory', association })] }),
        DEFAULT_CONFIG,
        NOW,
      );
      expect(plan).toEqual({ actions: [], holder: null, deadline: null, waitlist: [] });
    },
  );

  it.each(['OWNER', 'MEMBER', 'COLLABORATOR'])(
    'a marker from an %s author holds',
    (association) => {
      const plan = decide(
        facts({ comments: [claim({ id: 1, association })] }),
        DEFAULT_CONFIG,
        NOW,
      );
      expect(agentHolder(plan.holder)?.commentId).toBe(1);
    },
  );

  it('a forged older marker does not take the issue from a trusted newer claim', () => {
    const plan = decide(
      facts({ comments: [claim({ id: 1, by: 'mallory', association: 'NONE' }), claim({ id: 2 })] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(agentHolder(plan.holder)?.commentId).toBe(2);
    expect(kinds(plan.actions)).toEqual([`add-label ${IN_PROGRESS}`, 'assign alice']);
  });

  it('a bot listed in trustedBots may claim, whatever its association', () => {
    const config = { ...DEFAULT_CONFIG, trustedBots: ['My-Agent[bot]'] };
    const plan = decide(
      facts({ comments: [claim({ id: 1, by: 'my-agent[bot]', association: 'NONE' })] }),
      config,
      NOW,
    );
    expect(plan.holder?.author).toBe('my-agent[bot]');
    // GitHub cannot assign a bot account, so the app does not ask.
    expect(kinds(plan.actions)).toEqual([`add-label ${IN_PROGRESS}`]);
  });

  it('a marker in a pull request’s conversation is not a claim', () => {
    const plan = decide(
      facts({ isPullRequest: true, comments: [claim({ id: 1 })], labels: [IN_PROGRESS] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.actions).toEqual([]);
  });
});

describe('decide: released is final (docs/protocol.md §3)', () => {
  it('finalises again a released comment edited back to a live stage, keeping its outcome', () => {
    const plan = decide(
      facts({
        comments: [claim({ id: 1, stage: 'implementing' })],
        hints: [
          { kind: 'release-reverted', commentId: 1, outcome: 'landed', at: NOW.toISOString() },
        ],
        assignees: ['alice'],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(kinds(plan.actions)).toEqual(['finalise 1 landed (release-final)', 'unassign alice']);
    expect(plan.holder).toBeNull();
  });
});

describe('decide: a busy thread', () => {
  it('picks the oldest live claim among interleaved released, stale, foreign and plain comments', () => {
    const plan = decide(
      facts({
        comments: [
          claim({ id: 1, by: 'a', stage: 'released', outcome: 'landed', assignee: 'before' }),
          remark(2, 'lgtm'),
          claim({ id: 3, by: 'mallory', association: 'NONE' }),
          claim({ id: 4, by: 'b', updatedAgoMs: 10 * HOUR, assignee: 'before' }),
          claim({ id: 5, by: 'c', stage: 'review' }),
          claim({ id: 6, by: 'd', assignee: 'before' }),
        ],
      }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(agentHolder(plan.holder)?.commentId).toBe(5);
    expect(kinds(plan.actions)).toEqual([
      'note for 4',
      'finalise 4 abandoned (stale)',
      'finalise 6 abandoned (lost)',
      `add-label ${IN_PROGRESS}`,
      'assign c',
    ]);
  });
});
