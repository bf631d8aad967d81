import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { decideWithPeople } from '../../src/people/decide-with-people.js';
import { claim, HOUR, MINUTE } from '../helpers/thread-builder.js';
import { assigned, config, DAY, issue, kinds, NOW } from './people-builder.js';

describe('one holder across kinds (docs/protocol.md §16)', () => {
  it('a person assigned by hand holds against a later agent claim, which is finalised', () => {
    const facts = issue({
      assignees: ['dana'],
      comments: [claim({ id: 5, by: 'agent[bot]', association: 'NONE', postedAgoMs: HOUR })],
      people: { timeline: [assigned('dana', 'maria', 2 * HOUR)] },
    });
    const plan = decideWithPeople(facts, config({}, { trustedBots: ['agent[bot]'] }), NOW);
    expect(kinds(plan)).toEqual(['finalise 5 person abandoned', 'add-label status:in-progress']);
    const finalise = plan.actions[0];
    expect(finalise?.kind === 'finalise' && finalise.body).toContain(
      'assigned to @dana, who holds this issue',
    );
    expect(plan.holder).toMatchObject({
      kind: 'person',
      author: 'dana',
      assignedBy: 'maria',
      started: new Date(NOW.getTime() - 2 * HOUR),
      expires: false,
      pinned: false,
      url: 'https://github.com/acme/widgets/issues/12',
    });
  });

  it('on a tie of the marker comment and the assigned event, the person holds', () => {
    const facts = issue({
      assignees: ['dana'],
      comments: [claim({ id: 5, by: 'agent', postedAgoMs: HOUR })],
      people: { timeline: [assigned('dana', 'maria', HOUR)] },
    });
    expect(decideWithPeople(facts, config(), NOW).holder?.kind).toBe('person');
  });

  it.each([
    ['maintain', 'maintain', true],
    ['admin', 'maintain', true],
    ['write', 'maintain', false],
    ['triage', 'maintain', false],
    ['triage', 'triage', true],
    ['read', 'triage', false],
  ] as const)(
    'an agent holding when a %s assigns a person (handover: %s): handed over = %s',
    (role, handover, handed) => {
      const facts = issue({
        assignees: ['agent', 'dana'],
        comments: [claim({ id: 5, by: 'agent', postedAgoMs: 2 * HOUR })],
        people: { timeline: [assigned('dana', 'maria', HOUR)] },
        roles: { maria: role },
      });
      const plan = decideWithPeople(facts, config({ handover }), NOW);
      if (handed) {
        expect(kinds(plan)).toEqual([
          'finalise 5 handed-over handed-over',
          'add-label status:in-progress',
          'unassign agent',
        ]);
        const body = plan.actions[0]?.kind === 'finalise' ? plan.actions[0].body : '';
        expect(parseClaimMarker(body)?.outcome).toBe('handed-over');
        expect(body).toContain('handed to @dana by @maria');
        expect(plan.holder).toMatchObject({ kind: 'person', author: 'dana' });
      } else {
        // The agent keeps the issue; the person stays assigned (never undone for an agent).
        expect(kinds(plan)).toEqual(['add-label status:in-progress']);
        expect(plan.holder).toMatchObject({ kind: 'agent', commentId: 5 });
      }
    },
  );

  it('the person assigned beside a holding agent holds once the agent’s claim ends, ahead of the waitlist', () => {
    const facts = issue({
      assignees: ['dana'],
      comments: [
        claim({ id: 5, by: 'agent', stage: 'released', outcome: 'landed', postedAgoMs: 2 * HOUR }),
      ],
      people: { timeline: [assigned('dana', 'wendy', HOUR)] },
      roles: { wendy: 'write' },
    });
    expect(decideWithPeople(facts, config(), NOW).holder).toMatchObject({
      kind: 'person',
      author: 'dana',
    });
  });

  it('the app never unassigns a person it remembers assigning, for an agent or otherwise', () => {
    const facts = issue({
      assignees: ['dana'],
      appAssignees: ['dana'],
      people: { timeline: [assigned('dana', 'claim-warden[bot]', HOUR)] },
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(kinds(plan)).toEqual(['add-label status:in-progress']);
    expect(decide(facts, config(), NOW).actions).toContainEqual({
      kind: 'unassign',
      login: 'dana',
    });
  });

  it('an assignee whose marker accounts for the assignment is the agent, not a person', () => {
    const facts = issue({
      assignees: ['alice'],
      comments: [claim({ id: 5, by: 'alice', assignee: 'claim' })],
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(plan.holder).toMatchObject({ kind: 'agent', commentId: 5 });
    expect(plan).toEqual(decide(facts, config(), NOW));
  });

  it('bots are never person claims', () => {
    const facts = issue({ assignees: ['renovate[bot]'] });
    expect(decideWithPeople(facts, config(), NOW).holder).toBeNull();
  });

  it('a closed issue has no person holder: the status label goes', () => {
    const facts = issue({
      open: false,
      stateReason: 'completed',
      assignees: ['dana'],
      labels: ['status:in-progress'],
      people: { timeline: [assigned('dana', 'maria', HOUR)] },
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(plan.holder).toBeNull();
    expect(kinds(plan)).toEqual(['remove-label status:in-progress']);
  });

  it('without the timeline a person claim starts at the issue’s creation', () => {
    const facts = issue({
      assignees: ['dana'],
      comments: [claim({ id: 5, by: 'agent', postedAgoMs: 5 * MINUTE })],
      people: { timeline: null },
    });
    const plan = decideWithPeople(facts, config(), NOW);
    expect(plan.holder).toMatchObject({
      kind: 'person',
      started: new Date(NOW.getTime() - 60 * DAY),
    });
  });
});
