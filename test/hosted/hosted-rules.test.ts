import { describe, expect, it } from 'vitest';
import type { LinkedPull } from '../../src/claims/people-facts.js';
import { parseRepoConfig } from '../../src/config/parse-repo-config.js';
import { closingLinks } from '../../src/hosted/closing-links.js';
import { hostedClaims } from '../../src/hosted/hosted-claims.js';
import { DEFAULT_HOSTED_AGENTS, isHostedLogin } from '../../src/hosted/hosted-logins.js';
import { hostedPullEvent } from '../../src/hosted/hosted-pull-event.js';
import { decideWithPeople } from '../../src/people/decide-with-people.js';
import { peopleReads } from '../../src/people/people-reads.js';
import { claim, HOUR } from '../helpers/thread-builder.js';
import { assigned, config, issue, kinds, NOW, said } from '../people/people-builder.js';

const HOSTED = { hosted: DEFAULT_HOSTED_AGENTS };

function pull(spec: Partial<LinkedPull> & { agoMs?: number } = {}): LinkedPull {
  const at = new Date(NOW.getTime() - (spec.agoMs ?? HOUR));
  return {
    author: 'claude[bot]',
    updatedAt: at,
    createdAt: at,
    open: true,
    number: 40,
    body: 'Fixes #12',
    sameRepo: true,
    url: 'https://github.com/acme/widgets/pull/40',
    ...spec,
  };
}

describe('hosted logins (docs/protocol.md §18)', () => {
  it.each([
    ['Copilot', true],
    ['copilot', true],
    ['claude[bot]', true],
    ['Claude[BOT]', true],
    ['chatgpt-codex-connector[bot]', true],
    ['copilot-swe-agent[bot]', true],
    ['alice', false],
    ['helper[bot]', false],
  ])('%s is a hosted agent by default: %s', (login, hosted) => {
    expect(isHostedLogin(login, DEFAULT_HOSTED_AGENTS)).toBe(hosted);
  });

  it('an empty list matches no one', () => {
    expect(isHostedLogin('Copilot', [])).toBe(false);
  });
});

describe('closing links', () => {
  it.each([
    ['Fixes #12', [12]],
    ['fixes #12 and closes #13', [12, 13]],
    ['RESOLVED: #12', [12]],
    ['Closes acme/widgets#12', [12]],
    ['Closes other/repo#12', []],
    ['see #12', []],
    ['prefixes #12', []],
    ['Fixed #12, fixed #12', [12]],
  ])('%j links %j', (body, numbers) => {
    expect(closingLinks(body, 'acme/widgets')).toEqual(numbers);
  });
});

describe('hosted claims', () => {
  const people = (pulls: LinkedPull[] = [], timeline = [assigned('Copilot', 'mia', 2 * HOUR)]) => ({
    timeline,
    pulls,
    issue: 'acme/widgets#12',
    createdAt: new Date(NOW.getTime() - 100 * HOUR),
  });

  it('an assignment starts at its latest assigned event, by its actor', () => {
    const [found] = hostedClaims({ assignees: ['Copilot'] }, people(), DEFAULT_HOSTED_AGENTS);
    expect(found).toMatchObject({
      login: 'Copilot',
      assignedBy: 'mia',
      started: new Date(NOW.getTime() - 2 * HOUR),
      pull: null,
    });
  });

  it('an assignment and a pull request of one login are one claim, started at the earlier', () => {
    const claims = hostedClaims(
      { assignees: ['Copilot'] },
      people([pull({ author: 'Copilot', agoMs: 5 * HOUR, updatedAt: NOW })]),
      DEFAULT_HOSTED_AGENTS,
    );
    expect(claims).toHaveLength(1);
    expect(claims[0]?.started).toEqual(new Date(NOW.getTime() - 5 * HOUR));
    expect(claims[0]?.heartbeat).toEqual(NOW);
  });

  it.each([
    ['closed', pull({ open: false })],
    ['of another repository', pull({ sameRepo: false })],
    ['only mentioning the issue', pull({ body: 'see #12' })],
    ['closing another issue', pull({ body: 'Fixes #13' })],
    ['by a person', pull({ author: 'alice' })],
  ])('a pull request %s is no claim', (_, linked) => {
    expect(hostedClaims({ assignees: [] }, people([linked]), DEFAULT_HOSTED_AGENTS)).toEqual([]);
  });

  it('with hosted agents off there are none', () => {
    expect(hostedClaims({ assignees: ['Copilot'] }, people([pull()]), [])).toEqual([]);
  });
});

describe('one holder across kinds, with hosted agents', () => {
  it('Copilot assigned before a marker holds; the marker is finalised naming who assigned it', () => {
    const facts = issue({
      assignees: ['Copilot'],
      bots: ['Copilot'],
      comments: [claim({ id: 5, by: 'alice', postedAgoMs: HOUR })],
      people: { timeline: [assigned('Copilot', 'mia', 2 * HOUR)] },
    });
    const plan = decideWithPeople(facts, config({}, HOSTED), NOW);
    expect(kinds(plan)).toEqual(['finalise 5 hosted abandoned', 'add-label status:in-progress']);
    const finalise = plan.actions[0];
    expect(finalise?.kind === 'finalise' && finalise.body).toContain(
      'Copilot is working on this (assigned by @mia)',
    );
    expect(plan.holder).toMatchObject({ kind: 'hosted', author: 'Copilot', assignedBy: 'mia' });
    expect(plan.deadline).toBeNull();
    expect(plan.actions.some((a) => a.kind === 'unassign' || a.kind === 'assign')).toBe(false);
  });

  it('on a tie of a pull request and a marker comment, the hosted agent holds', () => {
    const facts = issue({
      comments: [claim({ id: 5, by: 'alice', postedAgoMs: HOUR })],
      people: { pulls: [pull({ agoMs: HOUR })] },
    });
    expect(decideWithPeople(facts, config({}, HOSTED), NOW).holder?.kind).toBe('hosted');
  });

  it('an earlier marker keeps the issue against a writer’s assignment, told once on issue and pull request', () => {
    const spec = {
      assignees: ['alice', 'Copilot'],
      bots: ['Copilot'],
      comments: [claim({ id: 5, by: 'alice', postedAgoMs: 3 * HOUR })],
      people: {
        timeline: [assigned('Copilot', 'mia', HOUR)],
        pulls: [pull({ author: 'Copilot', agoMs: HOUR / 2 })],
      },
      roles: { mia: 'write' as const },
    };
    const plan = decideWithPeople(issue(spec), config({}, HOSTED), NOW);
    expect(plan.holder?.kind).toBe('agent');
    const notes = plan.actions.filter((a) => a.kind === 'post-note');
    expect(notes.map((a) => a.kind === 'post-note' && (a.onPull ?? 'issue'))).toEqual([
      40,
      'issue',
    ]);
    expect(notes[1]?.kind === 'post-note' && notes[1].body).toContain('@mia assigned Copilot');
    // The issue's note, once in the thread, is not posted again, nor the pull request's.
    const posted = notes[1]!;
    const again = decideWithPeople(
      issue({
        ...spec,
        comments: [
          ...spec.comments,
          {
            id: 9,
            author: 'claim-warden[bot]',
            authorAssociation: 'NONE',
            body: posted.kind === 'post-note' ? posted.body : '',
            createdAt: NOW,
            updatedAt: NOW,
          },
        ],
      }),
      config({}, HOSTED),
      NOW,
    );
    expect(again.actions.filter((a) => a.kind === 'post-note' || a.kind === 'edit-note')).toEqual(
      [],
    );
  });

  it('a maintainer’s assignment hands the earlier marker over', () => {
    const facts = issue({
      assignees: ['alice', 'Copilot'],
      bots: ['Copilot'],
      comments: [claim({ id: 5, by: 'alice', postedAgoMs: 3 * HOUR })],
      people: { timeline: [assigned('Copilot', 'maria', HOUR)] },
      roles: { maria: 'maintain' },
    });
    const plan = decideWithPeople(facts, config({}, HOSTED), NOW);
    expect(kinds(plan)[0]).toBe('finalise 5 handed-over handed-over');
    expect(plan.holder?.kind).toBe('hosted');
  });

  it('a listed login is never a person claim, even where GitHub’s type is unknown', () => {
    const facts = issue({ assignees: ['Copilot'], people: { timeline: [] } });
    expect(decideWithPeople(facts, config({}, HOSTED), NOW).holder?.kind).toBe('hosted');
  });

  it('with hosted agents off, a bot assignee holds nothing', () => {
    const facts = issue({ assignees: ['Copilot'], bots: ['Copilot'], people: { timeline: [] } });
    expect(decideWithPeople(facts, config({}, { hosted: [] }), NOW).holder).toBeNull();
  });
});

describe('pull_request events of hosted agents', () => {
  const payload = (
    overrides: Record<string, unknown> = {},
    user = { login: 'claude[bot]', type: 'Bot' },
  ) => ({
    action: 'opened',
    repository: { full_name: 'acme/widgets', name: 'widgets', owner: { login: 'acme' } },
    pull_request: {
      number: 40,
      state: 'open',
      body: 'Fixes #12\n\ncloses #13',
      html_url: 'https://github.com/acme/widgets/pull/40',
      created_at: '2030-01-01T10:00:00Z',
      updated_at: '2030-01-01T11:00:00Z',
      user,
      head: { ref: 'claude/fix' },
    },
    ...overrides,
  });

  it('a bot’s pull request reconciles each issue it closes, with its head', () => {
    const event = hostedPullEvent(payload(), NOW);
    expect(event?.issues).toEqual([12, 13]);
    expect(event?.hint).toMatchObject({
      kind: 'hosted-pull',
      number: 40,
      head: 'claude/fix',
      open: true,
    });
  });

  it('an edit that took a link away reconciles that issue too', () => {
    const edited = payload({ action: 'edited', changes: { body: { from: 'Fixes #7' } } });
    expect(hostedPullEvent(edited, NOW)?.issues).toEqual([12, 13, 7]);
  });

  it.each([
    ['a person’s', payload({}, { login: 'alice', type: 'User' })],
    ['a synchronize', payload({ action: 'synchronize' })],
    ['a shapeless', { action: 'opened' }],
  ])('%s event asks nothing', (_, body) => {
    expect(hostedPullEvent(body, NOW)).toBeNull();
  });
});

describe('agents.hosted in claims.yml', () => {
  it.each([
    [{}, DEFAULT_HOSTED_AGENTS],
    [{ agents: { hosted: [] } }, []],
    [{ agents: { hosted: ['my-agent[bot]'] } }, ['my-agent[bot]']],
  ])('%j resolves to %j', (raw, hosted) => {
    const result = parseRepoConfig(raw, { staleAfterMs: 6 * HOUR });
    expect(result.ok && result.config.hosted).toEqual(hosted);
  });

  it.each([
    { agents: { hosted: 'Copilot' } },
    { agents: { host: [] } },
    { agents: { hosted: ['@bad bot'] } },
  ])('%j is refused naming the field', (raw) => {
    const result = parseRepoConfig(raw, { staleAfterMs: 6 * HOUR });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain('agents');
  });
});

describe('hosted agents with people’s claims off (docs/protocol.md §18 needs no §16)', () => {
  const off = () => {
    const { people: _, ...rest } = config({}, HOSTED);
    return rest;
  };

  it('a Copilot assignment holds against a later marker, a maintainer’s hands an earlier one over', () => {
    const later = issue({
      assignees: ['Copilot'],
      comments: [claim({ id: 5, by: 'alice', postedAgoMs: HOUR })],
      people: { timeline: [assigned('Copilot', 'mia', 2 * HOUR)] },
    });
    const plan = decideWithPeople(later, off(), NOW);
    expect(kinds(plan)).toEqual(['finalise 5 hosted abandoned', 'add-label status:in-progress']);
    expect(plan.holder).toMatchObject({ kind: 'hosted', author: 'Copilot' });
    const handover = issue({
      assignees: ['Copilot'],
      comments: [claim({ id: 5, by: 'alice', postedAgoMs: 3 * HOUR })],
      people: { timeline: [assigned('Copilot', 'maria', HOUR)] },
      roles: { maria: 'maintain' },
    });
    expect(kinds(decideWithPeople(handover, off(), NOW))).toEqual([
      'finalise 5 handed-over handed-over',
      'add-label status:in-progress',
    ]);
  });

  it('nothing of §16 runs: a person assigned is no claim, a /claim no command, the pinned label no state', () => {
    const facts = issue({
      assignees: ['Copilot', 'bob'],
      labels: ['claim:pinned'],
      comments: [said(7, '/claim', 'carol')],
      people: {
        timeline: [assigned('bob', 'bob', 3 * HOUR), assigned('Copilot', 'mia', HOUR)],
      },
      roles: { bob: 'write', carol: 'write' },
    });
    const plan = decideWithPeople(facts, off(), NOW);
    expect(plan.holder).toMatchObject({ kind: 'hosted', author: 'Copilot' });
    expect(kinds(plan)).toEqual(['add-label status:in-progress']);
    expect(plan.waitlist).toEqual([]);
  });

  it('reads nothing more for an issue with neither signal; the timeline and the assigner for Copilot', () => {
    const plain = issue({ assignees: ['bob'], comments: [said(7, '/claim', 'carol')] });
    expect(peopleReads(plain, off(), NOW)).toMatchObject({ timeline: false, logins: [] });
    const copilot = issue({ assignees: ['Copilot', 'bob'] });
    expect(peopleReads(copilot, off(), NOW).timeline).toBe(true);
    expect(peopleReads(copilot, off(), NOW, [assigned('Copilot', 'Mia', HOUR)]).logins).toEqual([
      'mia',
    ]);
  });
});
