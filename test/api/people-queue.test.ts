/**
 * People's claims in the work queue (docs/protocol.md §9, §16), through the real server and
 * the fake GitHub: the queue never offers an issue a person holds, nor one people wait for,
 * and lists a person's claim with `kind: person`. The person holder and the waitlist are put
 * in the app's index as a reconcile with people's claims records them
 * (src/read-model/record-reconciled.ts), so this file tests what the queue does with them.
 */
import { describe, expect, it } from 'vitest';
import type { PersonHolder } from '../../src/claims/plan.js';
import { indexedPersonOf } from '../../src/read-model/indexed-claim-of.js';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import { caller } from './api-helpers.js';

const DAY = 24 * 3_600_000;

describe('people in the work queue', () => {
  it('a person’s issue and a waitlisted one are never claimable; the person’s claim shows its kind', async ({
    onTestFinished,
  }) => {
    const h = await harnessFor(onTestFinished);
    const { fake, appUrl, settle } = h;
    const free = fake.createIssue(REPO, { title: 'free' });
    const persons = fake.createIssue(REPO, { title: 'bob works on it', assignees: ['bob'] });
    const waited = fake.createIssue(REPO, { title: 'carol waits for it' });
    await settle();
    const [owner, name] = REPO.split('/') as [string, string];
    const key = (number: number) => ({
      installationId: h.installationId,
      owner,
      repo: name,
      number,
    });
    const now = new Date();
    const bob: PersonHolder = {
      kind: 'person',
      author: 'bob',
      started: new Date(now.getTime() - DAY),
      heartbeat: new Date(now.getTime() - 3_600_000),
      assignedBy: 'maintainer',
      pinned: false,
      expires: false,
      url: `https://github.com/${REPO}/issues/${persons}`,
    };
    const { store } = h.app.warden;
    await store.setIssueClaim(key(persons), indexedPersonOf(bob, 14 * DAY));
    await store.setIssueClaim(key(waited), null, ['carol']);

    const alice = caller(appUrl, fake, 'alice');
    const numbers = async (query: string) =>
      (await alice.get(`/issues?${query}`)).body.items.map(
        (i: { issue: { number: number } }) => i.issue.number,
      );
    expect(await numbers('claimable=true')).toEqual([free]);
    expect(await numbers('claimable=false')).toEqual([persons]);
    expect(await numbers('claimedBy=bob')).toEqual([persons]);
    const listed = (await alice.get('/issues?claimable=false')).body.items[0];
    expect(listed.claim).toEqual({
      issue: `${REPO}#${persons}`,
      kind: 'person',
      commentId: null,
      url: bob.url,
      author: 'bob',
      session: null,
      lane: null,
      branch: null,
      stage: 'claimed',
      started: expect.any(String),
      updated: expect.any(String),
      heartbeat: expect.any(String),
      staleAt: null,
      assignee: null,
    });
  });
});
