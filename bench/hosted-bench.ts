import { type Stack, startStack } from '../sandbox/stack.js';
import type { RecordedRequest } from '../test/fake-github/fake-github.js';
import { marker } from './claim-marker.js';
import { callsSection, type Measured, summarise } from './measured-calls.js';
import type { Section } from './section.js';

const REPO = 'acme/widgets';
/** A repository with people's claims off: hosted agents still hold (docs/protocol.md §18). */
const OFF_REPO = 'acme/gadgets';
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
      fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: [REPO, OFF_REPO] });
      fake.addUser('alice', { association: 'COLLABORATOR' });
      fake.addUser('bob', { association: 'COLLABORATOR' });
      fake.addUser('mia', { association: 'COLLABORATOR' });
      fake.addUser('Copilot', { type: 'Bot' });
      fake.addUser('claude[bot]', { type: 'Bot' });
      fake.setFile(REPO, '.github/claims.yml', 'people:\n  enabled: true\n');
      fake.createLabel(REPO, { name: 'status:in-progress' });
      fake.setFile(OFF_REPO, '.github/claims.yml', 'people:\n  enabled: false\n');
      fake.createLabel(OFF_REPO, { name: 'status:in-progress' });
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
  const reconcileOf =
    (number: number, repo = 'widgets') =>
    () =>
      stack.app.warden.queue.enqueue({
        key: { installationId: INSTALLATION, owner: 'acme', repo, number },
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

  // docs/protocol.md §18 `branch`: Copilot's pull request whose event the app missed is known
  // from the timeline alone, which names no head; the first reconcile reads it, once.
  const unseen = fake.createIssue(REPO, { title: 'copilot, pull request unseen' });
  fake.assign(REPO, unseen, ['Copilot'], { actor: 'mia' });
  await deliverNew();
  await stack.app.warden.queue.idle();
  fake.openPullRequest(REPO, {
    head: 'copilot/unseen',
    files: ['src/c.ts'],
    author: 'Copilot',
    body: `Fixes #${unseen}`,
  });
  // The issue's comments and timeline changed, and the pull request is read for its head.
  await measure(
    'reconcile of an issue Copilot holds, its pull request known from the timeline only, after a comment',
    4,
    async () => {
      fake.addComment(REPO, unseen, { author: 'bob', body: 'Any news?' });
      await reconcileOf(unseen)();
    },
  );
  // The index keeps the branch: the pull request is not read again.
  await measure('reconcile of that issue after another comment (the branch kept)', 3, async () => {
    fake.addComment(REPO, unseen, { author: 'bob', body: 'Still there?' });
    await reconcileOf(unseen)();
  });

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

  // People's claims off: a marker claim on an issue with neither signal costs what it did
  // before hosted agents (the first claim of a repository reads its label too); Copilot
  // assigned costs what it does with people's claims on.
  const plain = fake.createIssue(OFF_REPO, { title: 'marker, people off' });
  await measure('people.enabled: false: marker claim posted', 5, async () => {
    fake.addComment(OFF_REPO, plain, { author: 'alice', body: marker('s-off') });
    await deliverNew();
  });
  await measure('people.enabled: false: reconcile of that issue, after a comment', 2, async () => {
    fake.addComment(OFF_REPO, plain, { author: 'bob', body: 'Any news?' });
    await reconcileOf(plain, 'gadgets')();
  });
  const offCopilot = fake.createIssue(OFF_REPO, { title: 'copilot, people off' });
  await measure('people.enabled: false: Copilot assigned', 5, async () => {
    fake.assign(OFF_REPO, offCopilot, ['Copilot'], { actor: 'mia' });
    await deliverNew();
  });
  await measure(
    'people.enabled: false: reconcile of an issue Copilot holds, after a comment',
    3,
    async () => {
      fake.addComment(OFF_REPO, offCopilot, { author: 'bob', body: 'Looks good.' });
      await reconcileOf(offCopilot, 'gadgets')();
    },
  );
}

/** Token minting is authentication, not a call the event asked for. */
function withoutTokens(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => !r.path.startsWith('/app/'));
}
