import { describe, expect, it } from 'vitest';
import { decideWithPeople } from '../../src/people/decide-with-people.js';
import { claim, HOUR } from '../helpers/thread-builder.js';
import { applyPlan } from './apply-plan.js';
import { assigned, config, DAY, issue, kinds, NOW, noteTexts, said } from './people-builder.js';

const APP = 'claim-warden[bot]';

/** Bob, assigned by the app for a `/claim` `agoMs` ago, quiet since. */
function bobAssigned(agoMs: number, actor = APP) {
  return issue({
    assignees: ['bob'],
    labels: ['status:in-progress'],
    people: { timeline: [assigned('bob', actor, agoMs)] },
  });
}

describe('liveness of a person claim (docs/protocol.md §16)', () => {
  it('at remindAfter the app reminds once, saying when the claim expires', () => {
    const facts = bobAssigned(10 * DAY);
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual([
      'note <!-- claim-warden note=people-remind login=bob since=2026-11-20T12:00:00Z -->',
    ]);
    expect(noteTexts(plan)[0]).toBe(
      '@bob are you still working on this? Nothing since 2026-11-20T12:00:00Z: your claim expires at 2026-12-04T12:00:00Z and you will be unassigned. To keep it, comment here, push to your linked pull request, or comment `/claim` again; `/release` lets it go.',
    );
    expect(plan.deadline).toEqual(new Date(NOW.getTime() + 4 * DAY + 1));
    const reminded = applyPlan(facts, plan, NOW);
    expect(decideWithPeople(reminded, config(), new Date(NOW.getTime() + DAY)).actions).toEqual([]);
  });

  it('at staleAfter the app unassigns them with a note, and the issue is free', () => {
    const facts = bobAssigned(14 * DAY + 1000);
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual([
      'remove-label status:in-progress',
      'unassign bob',
      'note <!-- claim-warden note=people-expired login=bob since=2026-11-16T11:59:59Z -->',
    ]);
    expect(noteTexts(plan)[0]).toMatch(
      /^@bob your claim on this issue expired: .* for longer than 14 days/,
    );
    expect(plan.holder).toBeNull();
  });

  it('exactly staleAfter old is still live', () => {
    expect(decideWithPeople(bobAssigned(14 * DAY), config(), NOW).holder?.kind).toBe('person');
  });

  it('a comment by the person, or an open linked pull request, is a heartbeat', () => {
    const commented = { ...bobAssigned(13 * DAY), comments: [said(3, 'on it', 'bob', 2 * DAY)] };
    expect(decideWithPeople(commented, config(), NOW).actions).toEqual([]);
    const base = bobAssigned(15 * DAY);
    const pull = { author: 'bob', updatedAt: new Date(NOW.getTime() - DAY), open: true };
    const pushed = { ...base, people: { ...base.people!, pulls: [pull] } };
    expect(decideWithPeople(pushed, config(), NOW).actions).toEqual([]);
    const closed = { ...base, people: { ...base.people!, pulls: [{ ...pull, open: false }] } };
    expect(kinds(decideWithPeople(closed, config(), NOW))).toContain('unassign bob');
  });

  it.each([
    ['commands', APP, true],
    ['commands', 'maria', false],
    ['all', 'maria', true],
    ['never', APP, false],
  ] as const)('expire: %s, assigned by %s: expires = %s', (expire, actor, expires) => {
    const plan = decideWithPeople(bobAssigned(20 * DAY, actor), config({ expire }), NOW);
    expect(kinds(plan).includes('unassign bob')).toBe(expires);
    if (!expires) {
      expect(plan.holder).toMatchObject({ kind: 'person', expires: false });
      expect(plan.deadline).toBeNull();
    }
  });

  it('remindAfter: 0 sends no reminder', () => {
    expect(
      decideWithPeople(bobAssigned(13 * DAY), config({ remindAfterMs: 0 }), NOW).actions,
    ).toEqual([]);
  });
});

describe('/release (docs/protocol.md §16)', () => {
  it('ends the commenter’s claim and serves the waitlist', () => {
    const facts = issue({
      assignees: ['bob'],
      labels: ['status:in-progress'],
      comments: [
        said(7, '/claim', 'carol', DAY),
        said(
          8,
          '<!-- claim-warden note=people-reply comment=7 outcome=waitlisted -->\n@carol …',
          APP,
          DAY,
        ),
        said(9, '/unclaim', 'bob'),
      ],
      people: { timeline: [assigned('bob', 'maria', 2 * DAY)] },
      roles: { carol: 'write' },
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual([
      'unassign bob',
      'assign carol',
      'note <!-- claim-warden note=people-served comment=7 login=carol -->',
      'react 9',
    ]);
    expect(plan.holder).toMatchObject({ kind: 'person', author: 'carol' });
  });

  it('a waiting person’s /release leaves the list', () => {
    const facts = issue({
      assignees: ['bob'],
      comments: [
        said(7, '/claim', 'carol', DAY),
        said(8, '<!-- claim-warden note=people-reply comment=7 outcome=waitlisted -->', APP, DAY),
        said(9, '/release', 'carol'),
      ],
      people: { timeline: [assigned('bob', 'maria', 2 * DAY)] },
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(plan.waitlist).toEqual([]);
    expect(kinds(plan)).toContain('react 9');
  });

  it('/release @login is for triagers; with nothing to release it is accepted as done', () => {
    const facts = (role: 'triage' | 'read') =>
      issue({
        assignees: ['bob'],
        comments: [said(9, '/release @bob', 'tess')],
        people: { timeline: [assigned('bob', 'maria', 2 * DAY)] },
        roles: { tess: role },
      });
    expect(kinds(decideWithPeople(facts('triage'), config(), NOW))).toEqual([
      'unassign bob',
      'react 9',
    ]);
    expect(noteTexts(decideWithPeople(facts('read'), config(), NOW))).toEqual([
      '@tess only triagers and maintainers may release an issue for someone else.',
    ]);
    const nothing = issue({ comments: [said(9, '/release', 'bob')] });
    expect(kinds(decideWithPeople(nothing, config(), NOW))).toEqual(['react 9']);
  });
});

describe('/pin and /unpin: the label is the state (docs/protocol.md §16)', () => {
  const staleAgent = (labels: string[], comments = [] as ReturnType<typeof said>[]) =>
    issue({
      assignees: ['agent'],
      labels: ['status:in-progress', ...labels],
      comments: [claim({ id: 5, by: 'agent', updatedAgoMs: 7 * HOUR }), ...comments],
      roles: { tess: 'triage', bob: 'read' },
    });

  it('a pinned agent claim does not go stale', () => {
    const plan = decideWithPeople(staleAgent(['claim:pinned']), config(), NOW);
    expect(plan.actions).toEqual([]);
    expect(plan.holder).toMatchObject({ kind: 'agent', commentId: 5 });
    expect(plan.deadline).toBeNull();
    expect(kinds(decideWithPeople(staleAgent([]), config(), NOW))).toContain(
      'finalise 5 stale abandoned',
    );
  });

  it('/pin by a triager adds the label; by a reader it is refused', () => {
    const fresh = issue({
      assignees: ['agent'],
      labels: ['status:in-progress'],
      comments: [claim({ id: 5, by: 'agent' }), said(7, '/pin', 'tess')],
      roles: { tess: 'triage' },
    });
    expect(kinds(decideWithPeople(fresh, config(), NOW))).toEqual([
      'add-label claim:pinned',
      'react 7',
    ]);
    const reader = { ...fresh, comments: [claim({ id: 5, by: 'agent' }), said(7, '/pin', 'bob')] };
    expect(noteTexts(decideWithPeople(reader, config(), NOW))).toEqual([
      '@bob only triagers and maintainers may pin a claim.',
    ]);
  });

  it('/unpin takes the label off and the claim goes stale as usual', () => {
    const plan = decideWithPeople(
      staleAgent(['claim:pinned'], [said(7, '/unpin', 'tess')]),
      config(),
      NOW,
    );
    expect(kinds(plan)).toEqual([
      'note <!-- claim-warden note=expired comment=5 -->',
      'finalise 5 stale abandoned',
      'remove-label status:in-progress',
      'unassign agent',
      'remove-label claim:pinned',
      'react 7',
    ]);
  });

  it('/pin with no holder is refused; a pinned label with no holder is taken off', () => {
    const free = issue({ comments: [said(7, '/pin', 'tess')], roles: { tess: 'triage' } });
    expect(noteTexts(decideWithPeople(free, config(), NOW))).toEqual([
      '@tess no claim holds this issue: there is nothing to pin.',
    ]);
    const left = issue({ labels: ['claim:pinned'] });
    expect(kinds(decideWithPeople(left, config(), NOW))).toEqual(['remove-label claim:pinned']);
    expect(decideWithPeople(left, config({}, { enforceLabels: false }), NOW).actions).toEqual([]);
  });

  it('a pinned person claim does not expire', () => {
    const facts = issue({
      assignees: ['bob'],
      labels: ['status:in-progress', 'claim:pinned'],
      people: { timeline: [assigned('bob', APP, 30 * DAY)] },
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(plan.actions).toEqual([]);
    expect(plan.holder).toMatchObject({ kind: 'person', pinned: true, expires: false });
  });
});
