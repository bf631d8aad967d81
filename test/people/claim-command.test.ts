import { describe, expect, it } from 'vitest';
import { trustedClaims } from '../../src/claims/trusted-claims.js';
import { decideWithPeople } from '../../src/people/decide-with-people.js';
import { claim, HOUR } from '../helpers/thread-builder.js';
import { applyPlan } from './apply-plan.js';
import { assigned, config, DAY, issue, kinds, NOW, noteTexts, said } from './people-builder.js';

const WRITER = { bob: 'write' } as const;

describe('/claim (docs/protocol.md §16)', () => {
  it('on a free issue assigns the commenter, with a 👍 and no comment', () => {
    const facts = issue({ comments: [said(7, '/claim')], roles: WRITER });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual(['add-label status:in-progress', 'assign bob', 'react 7']);
    expect(plan.holder).toMatchObject({ kind: 'person', author: 'bob', expires: true });
    // The sweep comes back for the reminder.
    expect(plan.deadline).toEqual(new Date(NOW.getTime() + 10 * DAY));
  });

  it('the app’s slug is an optional prefix', () => {
    const facts = issue({ comments: [said(7, '@claim-warden claim')], roles: WRITER });
    expect(kinds(decideWithPeople(facts, config(), NOW))).toContain('assign bob');
  });

  it('on an issue an agent holds, one reply naming the holder and its stale time, and a waitlist', () => {
    const facts = issue({
      assignees: ['agent'],
      labels: ['status:in-progress'],
      comments: [
        claim({ id: 5, by: 'agent', session: 's-1', postedAgoMs: HOUR }),
        said(7, '/claim'),
      ],
      roles: WRITER,
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual([
      'note <!-- claim-warden note=people-reply comment=7 outcome=waitlisted -->',
    ]);
    expect(noteTexts(plan)[0]).toBe(
      '@bob the agent claim in comment 5 (session `s-1`, by `agent`) holds this issue; it goes stale at 2026-11-30T18:00:00Z unless renewed. You are number 1 on the waitlist: the first in line still allowed is assigned when the issue frees.',
    );
    expect(plan.waitlist).toEqual(['bob']);
    expect(plan.holder).toMatchObject({ kind: 'agent', commentId: 5 });
  });

  it('the waiting person is assigned when the agent’s claim goes stale, with one comment', () => {
    const agentClaim = claim({ id: 5, by: 'agent', postedAgoMs: HOUR });
    const first = issue({
      assignees: ['agent'],
      comments: [agentClaim, said(7, '/claim')],
      roles: WRITER,
    });
    const waiting = applyPlan(first, decideWithPeople(first, config(), NOW), NOW);
    const later = new Date(NOW.getTime() + 7 * HOUR);
    const plan = decideWithPeople(waiting, config(), later);
    expect(kinds(plan)).toEqual([
      'note <!-- claim-warden note=expired comment=5 -->',
      'finalise 5 stale abandoned',
      'unassign agent',
      'assign bob',
      'note <!-- claim-warden note=people-served comment=7 login=bob -->',
    ]);
    expect(noteTexts(plan)[1]).toBe('#12 is yours: @bob was first in line.');
    expect(plan.holder).toMatchObject({ kind: 'person', author: 'bob', started: later });
    expect(plan.waitlist).toEqual([]);
    // Served once: the next reconcile changes nothing.
    const served = applyPlan(waiting, plan, later);
    expect(decideWithPeople(served, config(), later).actions).toEqual([]);
  });

  it('an agent claim posted while someone waits does not hold against them', () => {
    const waiting = issue({
      comments: [
        claim({ id: 5, by: 'agent', stage: 'released', outcome: 'landed', postedAgoMs: 3 * HOUR }),
        said(7, '/claim', 'bob', 2 * HOUR),
        said(
          8,
          '<!-- claim-warden note=people-reply comment=7 outcome=waitlisted -->\n@bob …',
          'claim-warden[bot]',
          2 * HOUR,
        ),
        claim({ id: 9, by: 'other', postedAgoMs: HOUR }),
      ],
      roles: WRITER,
    });
    const plan = decideWithPeople(waiting, config(), NOW);
    expect(kinds(plan)).toContain('finalise 9 person abandoned');
    expect(kinds(plan)).toContain('assign bob');
    expect(plan.holder).toMatchObject({ kind: 'person', author: 'bob' });
  });

  it('on an issue another person holds, the reply names them and that it does not expire', () => {
    const facts = issue({
      assignees: ['dana'],
      comments: [said(7, '/claim')],
      people: { timeline: [assigned('dana', 'maria', DAY)] },
      roles: WRITER,
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(noteTexts(plan)[0]).toBe(
      '@bob `dana` holds this issue (assigned 2026-11-29T12:00:00Z); it does not expire. You are number 1 on the waitlist: the first in line still allowed is assigned when the issue frees.',
    );
  });

  it('by the holder again is accepted and keeps the claim', () => {
    const facts = issue({
      assignees: ['bob'],
      labels: ['status:in-progress'],
      comments: [said(7, '/claim', 'bob')],
      people: { timeline: [assigned('bob', 'claim-warden[bot]', 11 * DAY)] },
      roles: WRITER,
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual(['react 7']);
    expect(plan.deadline).toEqual(new Date(NOW.getTime() + 10 * DAY));
  });

  it.each([
    ['collaborators', 'read', [], false],
    ['collaborators', 'write', [], true],
    ['collaborators', 'maintain', [], true],
    ['members', 'none', [], false],
    ['anyone', 'none', ['good first issue'], true],
    ['anyone', 'none', [], false],
  ] as const)('who: %s, a %s on an issue labelled %j may claim: %s', (who, role, labels, ok) => {
    const facts = issue({
      labels: [...labels],
      comments: [said(7, '/claim')],
      roles: { bob: role },
    });
    const plan = decideWithPeople(facts, config({ who, labels: ['good first issue'] }), NOW);
    if (ok) expect(kinds(plan)).toContain('assign bob');
    else {
      expect(kinds(plan)).toEqual([
        'note <!-- claim-warden note=people-reply comment=7 outcome=refused -->',
      ]);
      expect(noteTexts(plan)[0]).toMatch(/^@bob only collaborators/);
    }
  });

  it('who: members lets an organisation member claim', () => {
    const facts = issue({ comments: [said(7, '/claim')], people: { members: new Set(['bob']) } });
    expect(kinds(decideWithPeople(facts, config({ who: 'members' }), NOW))).toContain('assign bob');
  });

  it('over the cap, refused naming the issues held', () => {
    const facts = issue({
      comments: [said(7, '/claim')],
      roles: WRITER,
      people: { heldElsewhere: new Map([['bob', ['acme/widgets#3', 'acme/gears#9']]]) },
    });
    const plan = decideWithPeople(facts, config({ maxClaims: 2 }), NOW);
    expect(kinds(plan)).toEqual([
      'note <!-- claim-warden note=people-reply comment=7 outcome=refused -->',
    ]);
    expect(noteTexts(plan)[0]).toBe(
      '@bob `bob` already holds 2 issues, the most one person may hold here (2): acme/widgets#3, acme/gears#9. Release one first with `/release` on it.',
    );
    expect(kinds(decideWithPeople(facts, config({ maxClaims: 3 }), NOW))).toContain('assign bob');
  });

  it('/claim @login by a triager assigns that person; by anyone else it is refused', () => {
    const facts = (role: 'triage' | 'read') =>
      issue({ comments: [said(7, '/claim @dana', 'tess')], roles: { tess: role } });
    expect(kinds(decideWithPeople(facts('triage'), config(), NOW))).toEqual([
      'add-label status:in-progress',
      'assign dana',
      'react 7',
    ]);
    expect(noteTexts(decideWithPeople(facts('read'), config(), NOW))).toEqual([
      '@tess only triagers and maintainers may claim an issue for someone else.',
    ]);
  });

  it('on a closed issue, refused', () => {
    const facts = issue({ open: false, comments: [said(7, '/claim')], roles: WRITER });
    expect(noteTexts(decideWithPeople(facts, config(), NOW))).toEqual([
      '@bob this issue is closed.',
    ]);
  });

  it('for the app, refused: agents claim with a marker', () => {
    const bot = issue({
      comments: [said(7, '/claim @claim-warden', 'tess')],
      roles: { tess: 'triage' },
    });
    expect(noteTexts(decideWithPeople(bot, config(), NOW))).toEqual([
      '@tess bots are not assigned: agents claim with a claim comment.',
    ]);
  });

  it('commands run in comment order, each on the state the earlier left', () => {
    const facts = issue({
      comments: [said(8, '/claim', 'carol'), said(7, '/claim', 'bob')],
      roles: { bob: 'write', carol: 'write' },
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual([
      'add-label status:in-progress',
      'assign bob',
      'note <!-- claim-warden note=people-reply comment=8 outcome=waitlisted -->',
      'react 7',
    ]);
    expect(plan.waitlist).toEqual(['carol']);
  });

  it('the app’s notes carry no marker and are never read back as claims', () => {
    const facts = issue({
      assignees: ['agent'],
      comments: [claim({ id: 5, by: 'agent' }), said(7, '/claim')],
      roles: WRITER,
    });
    const after = applyPlan(facts, decideWithPeople(facts, config(), NOW), NOW);
    const notes = after.comments.filter((c) => c.author === 'claim-warden[bot]');
    expect(notes).toHaveLength(1);
    expect(trustedClaims(notes, ['claim-warden[bot]'])).toEqual([]);
  });
});
