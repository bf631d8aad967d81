import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import type { IssueFacts } from '../../src/claims/issue-facts.js';
import type { Role } from '../../src/claims/people-facts.js';
import type { Plan } from '../../src/claims/plan.js';
import type { ThreadComment } from '../../src/claims/types.js';
import { decideWithPeople } from '../../src/people/decide-with-people.js';
import { claim, HOUR } from '../helpers/thread-builder.js';
import { applyPlan } from './apply-plan.js';
import { assigned, config, DAY, issue, NOW, said } from './people-builder.js';

const PEOPLE = ['bob', 'carol', 'dana', 'tess'] as const;
const AGENTS = ['agent', 'alice'] as const;
const BODIES = [
  '/claim',
  '/release',
  '/unclaim',
  '/pin',
  '/unpin',
  '/claim @dana',
  '/release @bob',
  'hello',
  '```\n/claim\n```',
];
const ROLES: readonly Role[] = ['none', 'read', 'triage', 'write', 'maintain', 'admin'];

const agentComment = fc.record({
  by: fc.constantFrom(...AGENTS),
  stage: fc.constantFrom('claimed', 'implementing', 'blocked', 'released') as fc.Arbitrary<
    'claimed' | 'implementing' | 'blocked' | 'released'
  >,
  assignee: fc.constantFrom('claim', 'before', null) as fc.Arbitrary<'claim' | 'before' | null>,
  updatedAgoMs: fc.integer({ min: 0, max: 10 * HOUR }),
  extraMs: fc.integer({ min: 0, max: 2 * DAY }),
});

const personComment = fc.record({
  body: fc.constantFrom(...BODIES),
  by: fc.constantFrom(...PEOPLE, 'helper[bot]'),
  agoMs: fc.integer({ min: 0, max: 20 * DAY }),
});

const thread = fc.record({
  comments: fc.array(
    fc.oneof(
      agentComment.map((a) => ({ agent: a })),
      personComment.map((p) => ({ person: p })),
    ),
    { maxLength: 8 },
  ),
  assignees: fc.subarray([...PEOPLE, ...AGENTS]),
  labels: fc.subarray(['status:in-progress', 'claim:pinned', 'good first issue']),
  actors: fc.array(fc.constantFrom('maria', 'claim-warden[bot]', 'bob', 'tess'), {
    minLength: 6,
    maxLength: 6,
  }),
  assignedAgoMs: fc.array(fc.integer({ min: 0, max: 30 * DAY }), { minLength: 6, maxLength: 6 }),
  roles: fc.array(fc.constantFrom(...ROLES), { minLength: 7, maxLength: 7 }),
  open: fc.boolean(),
  who: fc.constantFrom('collaborators', 'members', 'anyone') as fc.Arbitrary<
    'collaborators' | 'members' | 'anyone'
  >,
  expire: fc.constantFrom('commands', 'all', 'never') as fc.Arbitrary<'commands' | 'all' | 'never'>,
});

type Thread = typeof thread extends fc.Arbitrary<infer T> ? T : never;

function factsOf(t: Thread): IssueFacts {
  const comments: ThreadComment[] = t.comments.map((c, i) => {
    const id = i + 1;
    if ('agent' in c) {
      const { by, stage, assignee, updatedAgoMs, extraMs } = c.agent;
      return claim({
        id,
        by,
        stage,
        assignee,
        updatedAgoMs,
        postedAgoMs: updatedAgoMs + extraMs,
        ...(stage === 'released' ? { outcome: 'abandoned' as const } : {}),
      });
    }
    return said(id, c.person.body, c.person.by, c.person.agoMs);
  });
  const logins = [...PEOPLE, 'maria', 'helper[bot]', 'agent'];
  return issue({
    open: t.open,
    comments,
    assignees: t.assignees,
    labels: t.labels,
    roles: Object.fromEntries(logins.map((login, i) => [login, t.roles[i % t.roles.length]!])),
    people: {
      timeline: t.assignees.map((login, i) => assigned(login, t.actors[i]!, t.assignedAgoMs[i]!)),
      members: new Set(['carol']),
    },
  });
}

const rulesOf = (t: Thread) =>
  config({ who: t.who, labels: ['good first issue'], expire: t.expire });

/**
 * decideWithPeople and GitHub in turn until nothing is left to write, at NOW, then once agents'
 * claims went stale, then once people's did: each time the issue may free and serve the line.
 */
function toRest(facts: IssueFacts, t: Thread): { plans: Plan[]; last: IssueFacts } {
  const plans: Plan[] = [];
  let current = facts;
  for (const at of [NOW, new Date(NOW.getTime() + 11 * HOUR), new Date(NOW.getTime() + 15 * DAY)]) {
    for (let round = 0; round < 6; round++) {
      const plan = decideWithPeople(current, rulesOf(t), at);
      plans.push(plan);
      if (plan.actions.length === 0) break;
      current = applyPlan(current, plan, at);
    }
  }
  return { plans, last: current };
}

describe('decideWithPeople properties (docs/protocol.md §16)', () => {
  it('without people’s facts or settings it is decide() exactly', () => {
    fc.assert(
      fc.property(thread, (t) => {
        const facts = factsOf(t);
        const { people: _, ...withoutPeople } = facts;
        expect(decideWithPeople(withoutPeople, rulesOf(t), NOW)).toEqual(
          decide(withoutPeople, rulesOf(t), NOW),
        );
        const off = { ...rulesOf(t), people: undefined };
        expect(decideWithPeople(facts, off, NOW)).toEqual(decide(facts, off, NOW));
      }),
      { numRuns: 300 },
    );
  });

  it('comes to rest, answering each command and serving each waiting person at most once', () => {
    fc.assert(
      fc.property(thread, (t) => {
        const { plans } = toRest(factsOf(t), t);
        expect(plans.at(-1)?.actions).toEqual([]);
        const answers = new Map<string, number>();
        for (const plan of plans) {
          for (const action of plan.actions) {
            const note =
              action.kind === 'post-note' ? /note=(people-\w+)/.exec(action.body)?.[1] : undefined;
            const key =
              action.kind === 'react'
                ? `answer ${action.commentId}`
                : action.kind === 'post-note' && note === 'people-reply'
                  ? `answer ${action.forCommentId}`
                  : action.kind === 'post-note' && note === 'people-served'
                    ? `served ${action.forCommentId}`
                    : undefined;
            if (key !== undefined) answers.set(key, (answers.get(key) ?? 0) + 1);
          }
        }
        for (const count of answers.values()) expect(count).toBe(1);
      }),
      { numRuns: 300 },
    );
  });

  it('one holder across kinds: while a person holds, no agent claim is live', () => {
    fc.assert(
      fc.property(thread, (t) => {
        const { plans, last } = toRest(factsOf(t), t);
        const holder = plans.at(-1)?.holder ?? null;
        if (holder?.kind !== 'person') return;
        const { people: _, ...agentsOnly } = last;
        expect(decide(agentsOnly, rulesOf(t), NOW).holder).toBeNull();
        expect(last.labels).toContain('status:in-progress');
        expect(last.assignees).toContain(holder.author);
      }),
      { numRuns: 300 },
    );
  });
});
