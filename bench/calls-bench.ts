import { type Stack, startStack } from '../sandbox/stack.js';
import { marker } from './claim-marker.js';
import { callsSection, type Measured, summarise } from './measured-calls.js';
import type { Section } from './section.js';

const REPO = 'acme/widgets';
const INSTALLATION = 1;
const HOUR = 3_600_000;

/**
 * GitHub calls per event, per scenario, counted from the fake GitHub's request log. The fake
 * captures its webhooks and the bench delivers exactly the scenario's own: the app's echoes of
 * its own writes are delivered only in the "own echo" scenario. Each scenario runs on a
 * settled app (installation token minted and repository config cached at start-up), so what
 * is counted is what the event itself costs.
 */
export async function benchCalls(): Promise<Section> {
  const stack = await startStack({
    webhooks: 'capture',
    env: { CLAIMS_SWEEP_INTERVAL: '24h' },
    seed: (fake) => {
      fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: [REPO] });
      fake.addUser('alice', { association: 'COLLABORATOR' });
      fake.addUser('bob', { association: 'COLLABORATOR' });
      fake.addUser('mallory', { association: 'NONE' });
      fake.addUser('rogue-agent[bot]', { type: 'Bot', association: 'NONE' });
    },
  });
  const { fake } = stack;
  const results: Measured[] = [];
  try {
    await runScenarios(stack, results);
  } finally {
    await stack.close();
  }
  return callsSection(
    'calls',
    'GitHub calls per event, from the fake GitHub’s request log',
    results,
  );

  async function runScenarios(stack: Stack, out: Measured[]): Promise<void> {
    const queue = stack.app.warden.queue;
    let delivered = fake.deliveries.length;
    /** Delivers what people did since the last call (not the app's echoes). */
    const deliverNew = async () => {
      const fresh = fake.deliveries.slice(delivered);
      delivered = fake.deliveries.length;
      for (const d of fresh) await stack.deliver(d);
      return fresh;
    };
    /** Skips the deliveries produced so far (the app's echoes of its own writes). */
    const skipEchoes = () => {
      delivered = fake.deliveries.length;
    };
    const measure = async (scenario: string, floor: number, act: () => Promise<unknown>) => {
      skipEchoes();
      const mark = fake.requests.length;
      await act();
      await queue.idle();
      out.push(summarise(scenario, floor, fake.requests.slice(mark)));
    };

    // What start-up cost, up to the first scenario: identity, installations, token, the
    // installation's repositories, the config, the comments since one stale window, the open
    // issues (the work queue's index) and the app's webhook deliveries (delivery recovery,
    // docs/protocol.md §12).
    out.push(
      summarise('start-up: one installation, one repository, no claims', 9, fake.requests.slice()),
    );

    const first = fake.createIssue(REPO, { title: 'first' });
    await measure('comment without a marker', 0, async () => {
      fake.addComment(REPO, first, { author: 'alice', body: 'I can reproduce this.' });
      await deliverNew();
    });
    await measure('claim on a fresh issue, first in the repository', 5, async () => {
      fake.addComment(REPO, first, { author: 'alice', body: marker('s-first') });
      await deliverNew();
    });

    const n = fake.createIssue(REPO, { title: 'second' });
    let claimDelivery: { event: string; id: string; body: string } | undefined;
    let aliceComment = 0;
    const started = new Date();
    await measure('claim on a fresh issue', 4, async () => {
      const body = marker('s-alice', { started, updated: started });
      aliceComment = fake.addComment(REPO, n, { author: 'alice', body }).id;
      [claimDelivery] = await deliverNew();
    });
    await measure('losing claim (an older claim holds)', 3, async () => {
      fake.addComment(REPO, n, { author: 'bob', body: marker('s-bob') });
      await deliverNew();
    });
    const echoes = fake.deliveries.slice(delivered);
    await measure('own echo (the app’s edit of the losing claim)', 0, async () => {
      const echo = echoes.find((d) => d.event === 'issue_comment' && d.action === 'edited');
      if (!echo) throw new Error('calls bench: the losing claim was not finalised');
      await stack.deliver(echo);
    });
    await measure('duplicate delivery (same delivery id)', 0, async () => {
      await stack.deliver(claimDelivery!);
    });
    await measure('stage update (claimed → implementing)', 0, async () => {
      fake.editComment(aliceComment, marker('s-alice', { started, stage: 'implementing' }));
      await deliverNew();
    });
    await measure('heartbeat (updated moves on)', 0, async () => {
      const later = new Date(Date.now() + 1000);
      fake.editComment(
        aliceComment,
        marker('s-alice', { started, updated: later, stage: 'implementing' }),
      );
      await deliverNew();
    });
    await measure('release (stage=released outcome=landed)', 4, async () => {
      fake.editComment(
        aliceComment,
        marker('s-alice', { started, stage: 'released', outcome: 'landed' }),
      );
      await deliverNew();
    });

    const third = fake.createIssue(REPO, { title: 'third' });
    await measure('untrusted marker (author association NONE)', 0, async () => {
      fake.addComment(REPO, third, { author: 'mallory', body: marker('s-mallory') });
      await deliverNew();
    });

    await measure('untrusted bot marker (not in trustedBots)', 0, async () => {
      fake.addComment(REPO, third, { author: 'rogue-agent[bot]', body: marker('s-rogue') });
      await deliverNew();
    });

    // A claim that went stale: posted 7 hours ago (stale window 6 h), still labelled and
    // assigned, and due in the sweep's index.
    const stale = fake.createIssue(REPO, { title: 'stale' });
    const ago = new Date(Date.now() - 7 * HOUR);
    fake.addComment(REPO, stale, {
      author: 'alice',
      body: marker('s-stale', { updated: ago, stage: 'implementing' }),
      createdAt: ago,
      updatedAt: ago,
    });
    fake.addLabels(REPO, stale, ['status:in-progress']);
    fake.assign(REPO, stale, ['alice']);
    const key = { installationId: INSTALLATION, owner: 'acme', repo: 'widgets', number: stale };
    await stack.app.warden.store.setDeadline(key, new Date(Date.now() - HOUR));
    // Its branch unknown to GitHub: one compare (404), and the default branch read first, as
    // this is the repository's first compare (docs/protocol.md §17).
    await measure('stale sweep (one due issue, with the expiry note)', 8, async () => {
      const result = await stack.app.warden.sweep();
      if (result.queued !== 1) throw new Error(`calls bench: the sweep queued ${result.queued}`);
    });
  }
}
