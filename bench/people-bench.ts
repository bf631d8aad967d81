import { type Stack, startStack } from '../sandbox/stack.js';
import type { RecordedRequest } from '../test/fake-github/fake-github.js';
import { marker } from './claim-marker.js';
import { callsSection, type Measured, summarise } from './measured-calls.js';
import type { Section } from './section.js';

const REPO = 'acme/widgets';
const INSTALLATION = 1;

/**
 * People's claims (docs/protocol.md §16) in GitHub calls, from the fake GitHub's request log:
 * what a command costs (floor: the reaction and the assignment, besides reading the thread
 * and the commenter's role), what a reconcile of an issue a person holds costs (the timeline
 * read conditionally), and what `people.enabled: false` costs next to the same events with
 * people's claims on and to part two's figures (section "calls").
 */
export async function benchPeople(): Promise<Section> {
  const results: Measured[] = [];
  await withStack('people:\n  enabled: false\n', (stack) => offScenarios(stack, results));
  await withStack('people:\n  enabled: true\n', (stack) => onScenarios(stack, results));
  return callsSection('people', 'People’s claims: GitHub calls per event', results);
}

async function withStack(config: string, run: (stack: Stack) => Promise<void>): Promise<void> {
  const stack = await startStack({
    webhooks: 'capture',
    env: { CLAIMS_SWEEP_INTERVAL: '24h' },
    seed: (fake) => {
      fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: [REPO] });
      fake.addUser('alice', { association: 'COLLABORATOR' });
      fake.addUser('bob', { association: 'COLLABORATOR' });
      fake.setFile(REPO, '.github/claims.yml', config);
      fake.createLabel(REPO, { name: 'status:in-progress' });
    },
  });
  try {
    await run(stack);
  } finally {
    await stack.close();
  }
}

/** Measures one scenario: the requests made while `act` runs and the queue drains. */
function measurer(stack: Stack, out: Measured[]) {
  const { fake } = stack;
  let delivered = fake.deliveries.length;
  const deliverNew = async () => {
    const fresh = fake.deliveries.slice(delivered);
    delivered = fake.deliveries.length;
    for (const d of fresh) await stack.deliver(d);
  };
  return {
    deliverNew,
    async measure(scenario: string, floor: number, act: () => Promise<unknown>) {
      // The app's echoes of its own writes so far are not this scenario's.
      delivered = fake.deliveries.length;
      const mark = fake.requests.length;
      await act();
      await stack.app.warden.queue.idle();
      out.push(summarise(scenario, floor, withoutTokens(fake.requests.slice(mark))));
    },
  };
}

/** Token minting is authentication, not a call the event asked for. */
function withoutTokens(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => !r.path.startsWith('/app/'));
}

async function offScenarios(stack: Stack, out: Measured[]): Promise<void> {
  const { fake } = stack;
  const { measure, deliverNew } = measurer(stack, out);
  const n = fake.createIssue(REPO, { title: 'off' });
  await measure('people.enabled: false, assignment by a person', 0, async () => {
    fake.assign(REPO, n, ['bob'], { actor: 'bob' });
    await deliverNew();
  });
  await measure('people.enabled: false, /claim comment', 0, async () => {
    fake.addComment(REPO, n, { author: 'bob', body: '/claim' });
    await deliverNew();
  });
  const fresh = fake.createIssue(REPO, { title: 'off, claimed' });
  await measure(
    'people.enabled: false, claim on a fresh issue, first in the repository',
    5,
    async () => {
      fake.addComment(REPO, fresh, { author: 'alice', body: marker('s-off') });
      await deliverNew();
    },
  );
}

async function onScenarios(stack: Stack, out: Measured[]): Promise<void> {
  const { fake } = stack;
  const { measure, deliverNew } = measurer(stack, out);
  const fresh = fake.createIssue(REPO, { title: 'on, claimed' });
  await measure('people on, claim on a fresh issue, first in the repository', 5, async () => {
    fake.addComment(REPO, fresh, { author: 'alice', body: marker('s-on') });
    await deliverNew();
  });
  const n = fake.createIssue(REPO, { title: 'on, commanded' });
  // Reads: the issue, its comments, the commenter's role; writes: the label, the assignment,
  // the reaction.
  await measure('/claim on a free issue', 6, async () => {
    fake.addComment(REPO, n, { author: 'bob', body: '/claim' });
    await deliverNew();
  });
  const key = { installationId: INSTALLATION, owner: 'acme', repo: 'widgets', number: n };
  const reconcile = () => stack.app.warden.queue.enqueue({ key, hints: [], reason: 'bench' });
  // What the command wrote shows in the issue, its comments (the 👍 count) and its timeline;
  // the 👍's author is read once (an accepted command's only record).
  await measure('reconcile of an issue a person holds, first after the command', 4, reconcile);
  // Nothing changed: every read is conditional and answered 304.
  await measure('reconcile of an issue a person holds, nothing changed', 0, reconcile);
  // A comment changes the issue, the thread and the timeline (which lists comments).
  await measure('reconcile of an issue a person holds, after a comment', 3, async () => {
    fake.addComment(REPO, n, { author: 'bob', body: 'Still on it.' });
    await reconcile();
  });
  const assigned = fake.createIssue(REPO, { title: 'on, assigned' });
  // Reads: the issue, its comments, the timeline (the assigner's role is kept from the
  // command's); writes: the label.
  await measure('assignment by a person', 4, async () => {
    fake.assign(REPO, assigned, ['bob'], { actor: 'bob' });
    await deliverNew();
  });
}
