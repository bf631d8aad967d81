/**
 * People's claims made while the app was away (docs/protocol.md §4 resync, §16): a `/claim`
 * or an assignment GitHub never delivered is found by the start-up resync, and with people's
 * claims off the resync queues nothing for them but a hosted agent's assignment (§18). Each test starts its own fake and app; the
 * app is stopped, so GitHub records no delivery to recover.
 */
import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { REPO } from '../helpers/app-harness.js';
import { harnessFor, IN_PROGRESS } from './e2e-helpers.js';
import { PEOPLE_ON } from './people-scenarios.js';

const TIMELINE = /\/issues\/\d+\/timeline$/;

function withConfig(config: string) {
  return { seed: (fake: FakeGitHub) => fake.setFile(REPO, '.github/claims.yml', config) };
}

describe.concurrent('people’s claims missed while the app was away', () => {
  it('a /claim posted while the app was down is run by the start-up resync', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, withConfig(PEOPLE_ON));
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    await harness.settle();
    await harness.stopApp();
    const id = fake.addComment(REPO, n, { author: 'bob', body: '/claim' }).id;
    await harness.startApp();
    await harness.settle();
    expect(fake.issue(REPO, n).assignees).toEqual(['bob']);
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    expect(fake.reactions(id).some((r) => r.user === fake.botLogin)).toBe(true);
  });

  it('a person assigned while the app was down holds the issue after the start-up resync', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, withConfig(PEOPLE_ON));
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const quiet = fake.createIssue(REPO);
    await harness.settle();
    await harness.stopApp();
    fake.assign(REPO, n, ['bob'], { actor: 'bob' });
    fake.clearRequests();
    await harness.startApp();
    await harness.settle();
    expect(fake.issue(REPO, n).labels).toEqual([IN_PROGRESS]);
    // Only the assigned issue was read: the quiet one costs nothing beyond the listing.
    expect(fake.requests.filter((r) => r.path.endsWith(`/issues/${quiet}`))).toEqual([]);
    expect(fake.count('GET', TIMELINE)).toBe(1);
  });

  it('with people’s claims off, an assignment made while away is not read', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, withConfig('people:\n  enabled: false\n'));
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    await harness.settle();
    await harness.stopApp();
    fake.assign(REPO, n, ['bob'], { actor: 'bob' });
    fake.clearRequests();
    await harness.startApp();
    await harness.settle();
    expect(fake.requests.filter((r) => r.path.endsWith(`/issues/${n}`))).toEqual([]);
    expect(fake.count('GET', TIMELINE)).toBe(0);
    expect(fake.issue(REPO, n).labels).toEqual([]);
  });

  it('with people’s claims off, a hosted agent assigned while away holds after the resync; a person’s assignment is still not read', async ({
    onTestFinished,
  }) => {
    const harness = await harnessFor(onTestFinished, {
      seed: (fake: FakeGitHub) => {
        fake.setFile(REPO, '.github/claims.yml', 'people:\n  enabled: false\n');
        fake.addUser('Copilot', { type: 'Bot' });
      },
    });
    const { fake } = harness;
    const copilot = fake.createIssue(REPO);
    const person = fake.createIssue(REPO);
    await harness.settle();
    await harness.stopApp();
    fake.assign(REPO, copilot, ['Copilot'], { actor: 'alice' });
    fake.assign(REPO, person, ['bob'], { actor: 'bob' });
    fake.clearRequests();
    await harness.startApp();
    await harness.settle();
    expect(fake.issue(REPO, copilot).labels).toEqual([IN_PROGRESS]);
    expect(fake.requests.filter((r) => r.path.endsWith(`/issues/${person}`))).toEqual([]);
    expect(fake.count('GET', TIMELINE)).toBe(1);
  });
});
