/**
 * Every rule of docs/protocol.md §16 as a scenario a user would notice, run against the real
 * app and the fake GitHub on one replica (test/e2e/people.test.ts) and on three replicas on
 * Redis (test/replicas/people-replicas.test.ts). Times move with the shared clock; nothing
 * waits on real time.
 */
import { expect } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { callApi } from '../api/api-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { REPO } from '../helpers/app-harness.js';
import { callTool, claimArgs, errorOf, mcpClient } from '../mcp/mcp-helpers.js';
import { claimComment, HOUR, IN_PROGRESS } from './e2e-helpers.js';
import { DAY, type PeopleWorld } from './people-world.js';

/** People's claims on, the rest as the defaults say. */
export const PEOPLE_ON = 'people:\n  enabled: true\n';

/** One scenario: the config it needs and what it shows. */
export interface PeopleScenario {
  readonly name: string;
  readonly config: string;
  run(world: PeopleWorld): Promise<void>;
}

const TIMELINE = /\/issues\/\d+\/timeline$/;

/** The app's comments on an issue that carry no claim marker: replies, reminders, notes. */
function appNotes(fake: FakeGitHub, n: number): string[] {
  return fake
    .comments(REPO, n)
    .filter((c) => c.user.login === fake.botLogin && parseClaimMarker(c.body) === null)
    .map((c) => c.body);
}

function reactedByApp(fake: FakeGitHub, commentId: number): boolean {
  return fake.reactions(commentId).some((r) => r.user === fake.botLogin && r.content === '+1');
}

function marker(fake: FakeGitHub, commentId: number) {
  return parseClaimMarker(fake.comment(commentId)?.body ?? '');
}

/** An issue held by alice's agent claim (label and assignee written), and the claim's id. */
async function agentHolds(world: PeopleWorld): Promise<{ n: number; claim: number }> {
  const { fake } = world;
  const n = fake.createIssue(REPO);
  const claim = fake.addComment(REPO, n, {
    author: 'alice',
    body: claimComment('s-agent', { at: fake.clock() }),
  }).id;
  await world.settle();
  expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
  return { n, claim };
}

/** An issue bob assigned himself to (a person claim), settled. */
async function bobHolds(world: PeopleWorld): Promise<number> {
  const n = world.fake.createIssue(REPO);
  world.fake.assign(REPO, n, ['bob'], { actor: 'bob' });
  await world.settle();
  return n;
}

/** bob comments `/claim` (or `body`) on issue `n`; returns the comment id. */
async function command(world: PeopleWorld, n: number, body = '/claim', author = 'bob') {
  const id = world.fake.addComment(REPO, n, { author, body }).id;
  await world.settle();
  return id;
}

export const SCENARIOS: readonly PeopleScenario[] = [
  {
    name: 'an agent’s marker on an issue a person holds is finalised; the person keeps it',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const n = await bobHolds(world);
      world.advance(60_000);
      const late = fake.addComment(REPO, n, {
        author: 'alice',
        body: claimComment('s-late', { at: fake.clock() }),
      }).id;
      await world.settle();
      expect(marker(fake, late)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
      expect(fake.comment(late)?.body).toContain('@bob');
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
      expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    },
  },
  {
    name: 'the claims API and the MCP tool answer 409 with a person as the holder, and write no claim',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const n = await bobHolds(world);
      const answer = await callApi(world.appUrl, 'POST', `/repos/${REPO}/issues/${n}/claim`, {
        token: fake.tokenFor('alice'),
        body: { session: 's-api', lane: 'lane-1', branch: 'feat/api' },
      });
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('ISSUE_ALREADY_CLAIMED');
      expect(answer.body.error.details.holder).toMatchObject({ kind: 'person', author: 'bob' });
      const mcp = await mcpClient(world.appUrl, fake.tokenFor('alice'));
      try {
        const refused = await callTool(mcp, 'issue_claim', claimArgs(n, 's-mcp'));
        expect(refused.isError).toBe(true);
        expect(errorOf(refused)).toMatchObject({
          code: 'ISSUE_ALREADY_CLAIMED',
          details: { holder: { kind: 'person', author: 'bob' } },
        });
      } finally {
        await mcp.close();
      }
      await world.settle();
      const live = fake.comments(REPO, n).filter((c) => {
        const m = parseClaimMarker(c.body);
        return m !== null && m.stage !== 'released';
      });
      expect(live).toEqual([]);
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
    },
  },
  {
    name: 'a maintainer’s assignment hands an agent’s issue to a person',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const { n, claim } = await agentHolds(world);
      world.advance(60_000);
      fake.assign(REPO, n, ['bob'], { actor: 'maria' });
      await world.settle();
      expect(marker(fake, claim)).toMatchObject({ stage: 'released', outcome: 'handed-over' });
      expect(fake.comment(claim)?.body).toContain('@maria');
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
      expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    },
  },
  {
    name: 'a non-maintainer’s assignment leaves the agent holder; the person holds when it ends',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const { n, claim } = await agentHolds(world);
      world.advance(60_000);
      fake.assign(REPO, n, ['bob'], { actor: 'bob' });
      await world.settle();
      expect(marker(fake, claim)?.stage).toBe('claimed');
      expect(fake.issue(REPO, n).assignees.sort()).toEqual(['alice', 'bob']);
      // The agent releases: bob, assigned meanwhile, holds the issue.
      const at = fake.clock();
      const released = claimComment('s-agent', { at, stage: 'released', outcome: 'landed' });
      fake.editComment(claim, released);
      await world.settle();
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
      expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    },
  },
  {
    name: '/claim on an agent’s issue joins the waitlist; the person is assigned when the claim goes stale',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const { n, claim } = await agentHolds(world);
      world.advance(60_000);
      await command(world, n);
      expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
      const refused = appNotes(fake, n);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toContain('@bob');
      world.advance(7 * HOUR);
      await world.sweep();
      expect(marker(fake, claim)).toMatchObject({ stage: 'released' });
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
      expect(appNotes(fake, n).some((note) => /first in line/.test(note))).toBe(true);
    },
  },
  {
    name: 'the cap: a second /claim over people.maxClaims is refused naming the issue held',
    config: 'people:\n  enabled: true\n  maxClaims: 1\n',
    async run(world) {
      const { fake } = world;
      const first = fake.createIssue(REPO);
      const second = fake.createIssue(REPO);
      const accepted = await command(world, first);
      expect(fake.issue(REPO, first).assignees).toEqual(['bob']);
      expect(reactedByApp(fake, accepted)).toBe(true);
      const over = await command(world, second);
      expect(fake.issue(REPO, second).assignees).toEqual([]);
      expect(reactedByApp(fake, over)).toBe(false);
      const notes = appNotes(fake, second);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain(`#${first}`);
    },
  },
  {
    name: 'the cap cannot be raced: three /claims delivered at once with maxClaims: 1, one accepted',
    config: 'people:\n  enabled: true\n  maxClaims: 1\n',
    async run(world) {
      const { fake } = world;
      const issues = [fake.createIssue(REPO), fake.createIssue(REPO), fake.createIssue(REPO)];
      await world.settle();
      const ids = issues.map((n) => fake.addComment(REPO, n, { author: 'bob', body: '/claim' }).id);
      await world.settle();
      const held = issues.filter((n) => fake.issue(REPO, n).assignees.includes('bob'));
      expect(held).toHaveLength(1);
      expect(ids.filter((id) => reactedByApp(fake, id))).toHaveLength(1);
      for (const n of issues.filter((other) => other !== held[0])) {
        const notes = appNotes(fake, n);
        expect(notes).toHaveLength(1);
        expect(notes[0]).toContain(`#${held[0]}`);
        expect(fake.issue(REPO, n).labels).toEqual([]);
      }
    },
  },
  {
    name: 'a triager’s /claim @login for an account GitHub cannot assign is refused with one reply',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      fake.addUser('dana');
      const n = fake.createIssue(REPO);
      await world.settle();
      const id = await command(world, n, '/claim @dana', 'carol');
      await world.resend(
        fake.deliveries.find((d) => (d.payload.comment as { id?: number } | undefined)?.id === id)!,
      );
      expect(fake.issue(REPO, n).assignees).toEqual([]);
      expect(fake.issue(REPO, n).labels).toEqual([]);
      expect(reactedByApp(fake, id)).toBe(false);
      const notes = appNotes(fake, n);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain('cannot assign @dana');
      // Someone GitHub can assign is claimed for as before.
      const ok = await command(world, n, '/claim @bob', 'carol');
      expect(reactedByApp(fake, ok)).toBe(true);
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
      expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    },
  },
  {
    name: 'who: anyone lets an outsider claim a labelled issue, and only a labelled one',
    config: 'people:\n  enabled: true\n  who: anyone\n  labels: ["good first issue"]\n',
    async run(world) {
      const { fake } = world;
      const labelled = fake.createIssue(REPO, { labels: ['good first issue'] });
      const other = fake.createIssue(REPO);
      await world.settle();
      const yes = await command(world, labelled, '/claim', 'mallory');
      expect(fake.issue(REPO, labelled).assignees).toEqual(['mallory']);
      expect(reactedByApp(fake, yes)).toBe(true);
      await command(world, other, '/claim', 'mallory');
      expect(fake.issue(REPO, other).assignees).toEqual([]);
      expect(appNotes(fake, other)).toHaveLength(1);
    },
  },
  {
    name: 'a person’s claim is reminded once, then unassigned at staleAfter',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const n = fake.createIssue(REPO);
      await command(world, n);
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
      world.advance(10 * DAY + HOUR);
      await world.sweep();
      await world.sweep();
      const reminders = appNotes(fake, n);
      expect(reminders).toHaveLength(1);
      expect(reminders[0]).toContain('@bob');
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
      world.advance(4 * DAY);
      await world.sweep();
      expect(fake.issue(REPO, n).assignees).toEqual([]);
      expect(fake.issue(REPO, n).labels).toEqual([]);
      expect(appNotes(fake, n)).toHaveLength(2);
    },
  },
  {
    name: 'expire: never keeps a person’s claim past staleAfter',
    config: 'people:\n  enabled: true\n  expire: never\n',
    async run(world) {
      const { fake } = world;
      const n = fake.createIssue(REPO);
      await command(world, n);
      world.advance(30 * DAY);
      await world.sweep();
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
      expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    },
  },
  {
    name: '/pin keeps a stale agent claim live; the label is the state',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const { n, claim } = await agentHolds(world);
      const pin = await command(world, n, '/pin', 'carol');
      expect(reactedByApp(fake, pin)).toBe(true);
      expect(fake.issue(REPO, n).labels).toContain('claim:pinned');
      world.advance(7 * HOUR);
      await world.sweep();
      expect(marker(fake, claim)?.stage).toBe('claimed');
      expect(fake.issue(REPO, n).assignees).toEqual(['alice']);
      // Taking the label off by hand unpins: the claim is stale at once.
      fake.removeLabel(REPO, n, 'claim:pinned', { actor: 'maria' });
      await world.settle();
      expect(marker(fake, claim)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    },
  },
  {
    name: 'a pinned agent claim past its window reads as held on the API, by /pin or the label by hand',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const byCommand = await agentHolds(world);
      await command(world, byCommand.n, '/pin', 'carol');
      const byHand = await agentHolds(world);
      fake.addLabels(REPO, byHand.n, ['claim:pinned'], { actor: 'maria' });
      await world.settle();
      world.advance(7 * HOUR);
      await world.sweep();
      for (const { n, claim } of [byCommand, byHand]) {
        expect(marker(fake, claim)?.stage).toBe('claimed');
        expect(fake.issue(REPO, n).labels).toContain(IN_PROGRESS);
        const read = await callApi(world.appUrl, 'GET', `/repos/${REPO}/issues/${n}/claim`, {
          token: fake.tokenFor('bob'),
        });
        expect(read.status).toBe(200);
        expect(read.body.claim).toMatchObject({ session: 's-agent', author: 'alice' });
        // Held, so another session's claim is refused, and the holder can still heartbeat.
        const taken = await callApi(world.appUrl, 'POST', `/repos/${REPO}/issues/${n}/claim`, {
          token: fake.tokenFor('bob'),
          body: { session: 's-other', lane: 'lane-1', branch: 'feat/other' },
        });
        expect(taken.status).toBe(409);
        const beat = await callApi(
          world.appUrl,
          'POST',
          `/repos/${REPO}/issues/${n}/claim/heartbeat`,
          { token: fake.tokenFor('alice'), body: { session: 's-agent' } },
        );
        expect(beat.status).toBe(200);
      }
    },
  },
  {
    name: 'an account GitHub types Bot without the [bot] suffix (Copilot) is never a person',
    // With hosted agents off (docs/protocol.md §18 makes a listed Copilot a hosted claim).
    config: `${PEOPLE_ON}agents:\n  hosted: []\n`,
    async run(world) {
      const { fake } = world;
      fake.addUser('Copilot', { type: 'Bot' });
      const n = fake.createIssue(REPO);
      fake.assign(REPO, n, ['Copilot'], { actor: 'maria' });
      await world.settle();
      // Not a person's claim: nothing holds, so no status label, and no timeline read for it.
      expect(fake.issue(REPO, n).labels).toEqual([]);
      expect(fake.count('GET', TIMELINE)).toBe(0);
      world.advance(60_000);
      const claim = fake.addComment(REPO, n, {
        author: 'alice',
        body: claimComment('s-agent', { at: fake.clock() }),
      }).id;
      await world.settle();
      expect(marker(fake, claim)?.stage).toBe('claimed');
      expect(fake.comment(claim)?.body).not.toContain('@Copilot');
      expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
      expect(fake.issue(REPO, n).assignees.sort()).toEqual(['Copilot', 'alice']);
      // Its comment is no command either.
      const other = fake.createIssue(REPO);
      const said = await command(world, other, '/claim', 'Copilot');
      expect(reactedByApp(fake, said)).toBe(false);
      expect(fake.issue(REPO, other).assignees).toEqual([]);
    },
  },
  {
    name: 'commands inside code fences, or by bots, are not run',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const n = fake.createIssue(REPO);
      const fenced = await command(world, n, 'Type this:\n\n```\n/claim\n```\n');
      const quoted = await command(world, n, '> /claim\n\nas they said');
      const before = fake.requests.length;
      await command(world, n, '/claim', 'helper[bot]');
      // A bot's command costs no call at all.
      expect(fake.requests.slice(before).filter((r) => r.actor !== 'helper[bot]')).toEqual([]);
      expect(fake.issue(REPO, n).assignees).toEqual([]);
      expect(reactedByApp(fake, fenced) || reactedByApp(fake, quoted)).toBe(false);
      expect(appNotes(fake, n)).toEqual([]);
    },
  },
  {
    name: 'a command in a quote’s lazy continuation line or inside <pre> is not run',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const n = fake.createIssue(REPO);
      const lazy = await command(world, n, '> alice wrote: I will take it\n/claim\n\nagreed');
      const pre = await command(world, n, 'The bot syntax:\n<pre>\n/claim\n</pre>\n');
      await command(world, n, 'a plain comment', 'carol');
      expect(fake.issue(REPO, n).assignees).toEqual([]);
      expect(reactedByApp(fake, lazy) || reactedByApp(fake, pre)).toBe(false);
      expect(appNotes(fake, n)).toEqual([]);
    },
  },
  {
    name: 'a comment edited into /claim is never run, by its own event or any later one',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const n = fake.createIssue(REPO);
      const id = await command(world, n, 'I might look at this later.');
      world.advance(60_000);
      fake.editComment(id, '/claim');
      await world.settle();
      // Another command reconciles the issue again: the edited-in one still does not run.
      const other = await command(world, n, '/release', 'carol');
      expect(reactedByApp(fake, other)).toBe(true);
      world.advance(60_000);
      await world.sweep();
      expect(fake.issue(REPO, n).assignees).toEqual([]);
      expect(reactedByApp(fake, id)).toBe(false);
      expect(appNotes(fake, n)).toEqual([]);
      // Posted as a command, it runs.
      const posted = await command(world, n);
      expect(reactedByApp(fake, posted)).toBe(true);
      expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
    },
  },
  {
    name: 'a command delivered twice more runs once',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const n = fake.createIssue(REPO);
      const id = await command(world, n);
      const delivery = fake.deliveries.find(
        (d) =>
          d.event === 'issue_comment' &&
          (d.payload.comment as { id?: number } | undefined)?.id === id,
      );
      await world.resend(delivery!);
      await world.resend(delivery!);
      const path = `/repos/${REPO}/issues/comments/${id}/reactions`;
      expect(fake.count('POST', path)).toBe(1);
      expect(fake.count('POST', `/repos/${REPO}/issues/${n}/assignees`)).toBe(1);
      expect(appNotes(fake, n)).toEqual([]);
    },
  },
  {
    name: 'the timeline is read only when an assignee is unexplained',
    config: PEOPLE_ON,
    async run(world) {
      const { fake } = world;
      const { n } = await agentHolds(world);
      expect(fake.count('GET', TIMELINE)).toBe(0);
      fake.assign(REPO, n, ['bob'], { actor: 'bob' });
      await world.settle();
      expect(fake.count('GET', TIMELINE)).toBeGreaterThan(0);
    },
  },
  {
    name: 'people.enabled: false is part two: an assignment costs nothing, an agent takes the issue',
    config: 'people:\n  enabled: false\n',
    async run(world) {
      const { fake } = world;
      const n = fake.createIssue(REPO);
      await world.settle();
      const before = fake.requests.length;
      fake.assign(REPO, n, ['bob'], { actor: 'bob' });
      await command(world, n);
      // Nothing but the config (each replica reads it once, then caches it).
      const made = fake.requests.slice(before).filter((r) => !/\/contents\/|^\/app\//.test(r.path));
      expect(made).toEqual([]);
      const claim = fake.addComment(REPO, n, {
        author: 'alice',
        body: claimComment('s-agent', { at: fake.clock() }),
      }).id;
      await world.settle();
      expect(marker(fake, claim)?.stage).toBe('claimed');
      expect(fake.issue(REPO, n).assignees.sort()).toEqual(['alice', 'bob']);
      expect(fake.count('GET', TIMELINE)).toBe(0);
    },
  },
];
