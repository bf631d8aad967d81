import { describe, expect, it } from 'vitest';
import { decideWithPeople } from '../../src/people/decide-with-people.js';
import { peopleReads } from '../../src/people/people-reads.js';
import { claim } from '../helpers/thread-builder.js';
import { applyPlan } from './apply-plan.js';
import { assigned, config, DAY, issue, kinds, NOW, said } from './people-builder.js';

const APP = 'claim-warden[bot]';

/** A claim comment of a passer-by, with a command below its marker. */
function markerWithCommand() {
  const marker = claim({ id: 7, by: 'bob', association: 'NONE' });
  return { ...marker, body: `${marker.body}\n/claim` };
}

describe('commands that are not run (docs/protocol.md §16)', () => {
  it.each([
    ['a bot', said(7, '/claim', 'helper[bot]')],
    ['the app', said(7, '/claim', APP)],
    ['a code fence', said(7, '```\n/claim\n```')],
    ['a quote', said(7, '> /claim')],
    ['an HTML comment', said(7, '<!-- /claim -->')],
    ['an untrusted claim comment', markerWithCommand()],
    ['a comment older than people.staleAfter', said(7, '/claim', 'bob', 15 * DAY)],
  ])('from %s', (_name, comment) => {
    const facts = issue({ comments: [comment], roles: { bob: 'write', 'helper[bot]': 'write' } });
    expect(
      kinds(decideWithPeople(facts, config(), NOW)).filter(
        (k) => k.includes('bob') || k.startsWith('react') || k.includes('people'),
      ),
    ).toEqual([]);
  });

  it('a command answered with 👍 is never run again, edited or redelivered', () => {
    const facts = issue({
      comments: [said(7, '/release', 'bob')],
      assignees: ['bob'],
      people: { reacted: new Set([7]), timeline: [assigned('bob', 'maria', DAY)] },
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(plan.holder).toMatchObject({ kind: 'person', author: 'bob' });
    expect(kinds(plan)).toEqual(['add-label status:in-progress']);
  });

  it('a command answered with a reply is never run again', () => {
    const facts = issue({
      comments: [
        said(7, '/claim', 'bob'),
        said(8, '<!-- claim-warden note=people-reply comment=7 outcome=refused -->\n@bob no', APP),
      ],
      roles: { bob: 'write' },
    });
    expect(decideWithPeople(facts, config(), NOW).actions).toEqual([]);
  });

  it('a reply tag written by someone else answers nothing', () => {
    const facts = issue({
      comments: [
        said(7, '/claim', 'bob'),
        said(8, '<!-- claim-warden note=people-reply comment=7 outcome=refused -->', 'mallory'),
      ],
      roles: { bob: 'write' },
    });
    expect(kinds(decideWithPeople(facts, config(), NOW))).toContain('react 7');
  });

  it('a thread run to rest answers each command once', () => {
    let facts = issue({
      assignees: ['agent'],
      comments: [
        claim({ id: 5, by: 'agent' }),
        said(7, '/claim', 'bob'),
        said(8, '/claim', 'carol'),
        said(9, '/release', 'carol'),
        said(10, '/pin', 'tess'),
      ],
      roles: { bob: 'write', carol: 'write', tess: 'maintain' },
    });
    const answers: number[] = [];
    for (let round = 0; round < 4; round++) {
      const plan = decideWithPeople(facts, config(), NOW);
      for (const action of plan.actions) {
        if (action.kind === 'react') answers.push(action.commentId);
        if (action.kind === 'post-note' && action.forCommentId > 0)
          answers.push(action.forCommentId);
      }
      facts = applyPlan(facts, plan, NOW);
    }
    expect(answers.sort()).toEqual([10, 7, 8, 9]);
  });
});

describe('peopleReads: what the edge reads (docs/protocol.md §16 cost)', () => {
  it('reads nothing more with people off, and on a pull request', () => {
    const facts = issue({ assignees: ['dana'], comments: [said(7, '/claim')] });
    const off = { ...config(), people: undefined };
    expect(peopleReads(facts, off, NOW)).toEqual({
      timeline: false,
      logins: [],
      members: false,
      reactions: [],
      assignable: [],
    });
    expect(peopleReads({ ...facts, isPullRequest: true }, config(), NOW).timeline).toBe(false);
  });

  it('reads the timeline only when an assignee is unexplained by a marker', () => {
    const agent = issue({ assignees: ['alice'], comments: [claim({ id: 5, by: 'alice' })] });
    expect(peopleReads(agent, config(), NOW).timeline).toBe(false);
    expect(peopleReads(issue({ assignees: ['renovate[bot]'] }), config(), NOW).timeline).toBe(
      false,
    );
    expect(peopleReads(issue({ assignees: ['dana'] }), config(), NOW).timeline).toBe(true);
  });

  it('asks for the roles of command authors and targets, the waiting, and the assigners', () => {
    const facts = issue({
      assignees: ['dana'],
      comments: [
        said(7, '/claim', 'Carol', DAY),
        said(8, '<!-- claim-warden note=people-reply comment=7 outcome=waitlisted -->', APP),
        said(9, '/claim @erin', 'tess'),
        said(10, 'hello', 'zed'),
      ],
    });
    const reads = peopleReads(facts, config({ who: 'members' }), NOW, [
      assigned('dana', 'Maria', DAY),
    ]);
    expect(reads).toEqual({
      timeline: true,
      logins: ['carol', 'erin', 'maria', 'tess'],
      members: true,
      reactions: [9],
      // Only a triager's `/claim @login` asks whether GitHub can assign its target.
      assignable: ['erin'],
    });
  });
});

describe('a passer-by repeating a refused command (docs/protocol.md §16)', () => {
  const notes = (plan: ReturnType<typeof decideWithPeople>) =>
    kinds(plan).filter((k) => k.startsWith('note'));

  it('501 refused /claims in one run get one reply', () => {
    const comments = Array.from({ length: 501 }, (_, i) => said(10 + i, '/claim', 'mallory'));
    const plan = decideWithPeople(issue({ comments }), config(), NOW);
    expect(notes(plan)).toHaveLength(1);
    expect(plan.actions.find((a) => a.kind === 'post-note')).toMatchObject({ forCommentId: 10 });
  });

  it('a refused /claim after the app replied to an earlier one gets no reply, until the window passed', () => {
    const reply = (agoMs: number) =>
      said(
        11,
        '<!-- claim-warden note=people-reply comment=10 outcome=refused -->\n@mallory no',
        APP,
        agoMs,
      );
    const within = issue({
      comments: [said(10, '/claim', 'mallory', DAY), reply(DAY), said(12, '/pin', 'mallory')],
    });
    expect(notes(decideWithPeople(within, config(), NOW))).toEqual([]);
    // Past people.staleAfter (14 days), a refusal is replied to again.
    const past = issue({
      comments: [
        said(10, '/claim', 'mallory', 15 * DAY),
        reply(15 * DAY),
        said(12, '/claim', 'mallory'),
      ],
    });
    expect(notes(decideWithPeople(past, config(), NOW))).toHaveLength(1);
    // Another person's refusal is theirs: one reply to them.
    const other = issue({
      comments: [said(10, '/claim', 'mallory', DAY), reply(DAY), said(12, '/claim', 'eve')],
    });
    expect(notes(decideWithPeople(other, config(), NOW))).toHaveLength(1);
  });

  it('an unanswered repeat is run again, and accepted once its author may claim', () => {
    const facts = issue({
      comments: [
        said(10, '/claim', 'mallory', DAY),
        said(
          11,
          '<!-- claim-warden note=people-reply comment=10 outcome=refused -->\n@mallory no',
          APP,
          DAY,
        ),
        said(12, '/claim', 'mallory'),
      ],
      roles: { mallory: 'write' },
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toContain('react 12');
    expect(kinds(plan)).toContain('assign mallory');
  });
});
