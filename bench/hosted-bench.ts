import { type Stack, startStack } from '../sandbox/stack.js';
import type { RecordedRequest } from '../test/fake-github/fake-github.js';
import { marker } from './claim-marker.js';
import { callsSection, type Measured, summarise } from './measured-calls.js';
import type { Section } from './section.js';

const REPO = 'acme/widgets';
const INSTALLATION = 1;

/**
 * Hosted agents (docs/protocol.md §18) in GitHub calls, from the fake GitHub's request log: a
 * reconcile of an issue Copilot holds by assignment, or claude[bot] by its pull request, next
 * to one a marker claim holds and one a person holds (the goal: no more than a person's).
 */
export async function benchHosted(): Promise<Section> {
  const results: Measured[] = [];
  const stack = await startStack({
    webhooks: 'capture',
    env: { CLAIMS_SWEEP_INTERVAL: '24h' },
    seed: (fake) => {
      fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: [REPO] });
      fake.addUser('alice', { association: 'COLLABORATOR' });
      fake.addUser('bob', { association: 'COLLABORATOR' });
      fake.addUser('mia', { association: 'COLLABORATOR' });
      fake.addUser('Copilot', { type: 'Bot' });
      fake.addUser('claude[bot]', { type: 'Bot' });
      fake.setFile(REPO, '.github/claims.yml', 'people:\n  enabled: true\n');
      fake.createLabel(REPO, { name: 'status:in-progress' });
    },
  });
  try {
    await scenarios(stack, results);
  } finally {
    await stack.close();
  }
  return callsSection('hosted', 'Hosted agents: GitHub calls per reconcile', results);
}

async function scenarios(stack: Stack, out: Measured[]): Promise<void> {
  const { fake } = stack;
  let delivered = fake.deliveries.length;
  const deliverNew = async () => {
    const fresh = fake.deliveries.slice(delivered);
    delivered = fake.deliveries.length;
    for (const d of fresh) await stack.deliver(d);
  };
  const measure = async (scenario: string, floor: number, act: () => Promise<unknown>) => {
    delivered = fake.deliveries.length;
    const mark = fake.requests.length;
    await act();
    await stack.app.warden.queue.idle();
    out.push(summarise(scenario, floor, withoutTokens(fake.requests.slice(mark))));
  };
  const reconcileOf = (number: number) => () =>
    stack.app.warden.queue.enqueue({
      key: { installationId: INSTALLATION, owner: 'acme', repo: 'widgets', number },
      hints: [],
      reason: 'bench',
    });

  const marked = fake.createIssue(REPO, { title: 'marker' });
  await measure('marker claim posted', 5, async () => {
    fake.addComment(REPO, marked, { author: 'alice', body: marker('s-bench') });
    await deliverNew();
  });
  await measure('reconcile of an issue a marker claim holds, after a comment', 2, async () => {
    fake.addComment(REPO, marked, { author: 'bob', body: 'Any news?' });
    await reconcileOf(marked)();
  });
  await measure(
    'reconcile of an issue a marker claim holds, nothing changed',
    0,
    reconcileOf(marked),
  );

  const person = fake.createIssue(REPO, { title: 'person' });
  // Reads: the issue, its comments, the timeline, the assigner's role; writes: the label.
  await measure('person assigned', 5, async () => {
    fake.assign(REPO, person, ['bob'], { actor: 'bob' });
    await deliverNew();
  });
  await measure('reconcile of an issue a person holds, after a comment', 3, async () => {
    fake.addComment(REPO, person, { author: 'bob', body: 'Still on it.' });
    await reconcileOf(person)();
  });
  await measure('reconcile of an issue a person holds, nothing changed', 0, reconcileOf(person));

  const copilot = fake.createIssue(REPO, { title: 'copilot' });
  // Reads: the issue, its comments, the timeline, the assigner's role; writes: the label.
  await measure('Copilot assigned', 5, async () => {
    fake.assign(REPO, copilot, ['Copilot'], { actor: 'mia' });
    await deliverNew();
  });
  await measure('reconcile of an issue Copilot holds, after a comment', 3, async () => {
    fake.addComment(REPO, copilot, { author: 'bob', body: 'Looks good.' });
    await reconcileOf(copilot)();
  });
  await measure('reconcile of an issue Copilot holds, nothing changed', 0, reconcileOf(copilot));

  const claude = fake.createIssue(REPO, { title: 'claude' });
  let pull = 0;
  // The guard's file read and check run; for the issue: its reads, the timeline, the label.
  await measure('claude[bot] opens a pull request "Fixes #N"', 6, async () => {
    pull = fake.openPullRequest(REPO, {
      head: 'claude/fix',
      files: ['src/a.ts'],
      author: 'claude[bot]',
      body: `Fixes #${claude}`,
    });
    await deliverNew();
  });
  await measure(
    'reconcile of an issue claude[bot]’s pull request holds, after a comment',
    3,
    async () => {
      fake.addComment(REPO, claude, { author: 'bob', body: 'Thanks.' });
      await reconcileOf(claude)();
    },
  );
  await measure(
    'reconcile of an issue claude[bot]’s pull request holds, nothing changed',
    0,
    reconcileOf(claude),
  );
  // The issue's thread and timeline changed (two 304s aside): the timeline, the label.
  await measure('claude[bot]’s pull request closed unmerged', 2, async () => {
    fake.closePullRequest(REPO, pull, 'bob');
    await deliverNew();
  });
}

/** Token minting is authentication, not a call the event asked for. */
function withoutTokens(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => !r.path.startsWith('/app/'));
}
