import { createServer } from 'node:http';
import pino from 'pino';
import { ProbotOctokit } from 'probot';
import { freePort, stackPrivateKey, startStack } from '../sandbox/stack.js';
import { renderClaimComment } from '../src/claims/comment.js';
import { recoverDeliveries } from '../src/recovery/recover-deliveries.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { sweepOnce } from '../src/sweep/sweep.js';
import { type FakeGitHub, startFakeGitHub } from '../test/fake-github/fake-github.js';
import { isCounted } from './measured-calls.js';
import type { Section } from './section.js';

const REPOS = 100;
const INSTALLATION = 1;
const HOUR = 3_600_000;

/** One measured run: calls GitHub counts against the rate limit, and the free 304s. */
interface Measured {
  readonly scenario: string;
  readonly counted: number;
  readonly notModified: number;
  /** `METHOD path` → how many, for the calls counted. */
  readonly calls: Readonly<Record<string, number>>;
}

function measure(fake: FakeGitHub, scenario: string): Measured {
  const calls: Record<string, number> = {};
  let notModified = 0;
  for (const r of fake.requests) {
    if (!isCounted(r)) {
      notModified += 1;
      continue;
    }
    const route = `${r.method} ${r.path
      .replace(/^\/repos\/[^/]+\/[^/]+/, '/repos/{o}/{r}')
      .replace(/\/\d+(?=\/|$)/g, '/{id}')}`;
    calls[route] = (calls[route] ?? 0) + 1;
  }
  const counted = Object.values(calls).reduce((a, b) => a + b, 0);
  return { scenario, counted, notModified, calls };
}

/** A resync of 100 quiet repositories: the start-up one, then the next (docs/api-budget.md). */
async function resyncRuns(results: Measured[]): Promise<void> {
  const names = Array.from({ length: REPOS }, (_, i) => `acme/repo-${i + 1}`);
  const stack = await startStack({
    webhooks: 'capture',
    env: { CLAIMS_SWEEP_INTERVAL: '24h' },
    seed: (fake) => fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: names }),
  });
  try {
    results.push(measure(stack.fake, `resync, ${REPOS} repositories, first run (start-up)`));
    stack.fake.clearRequests();
    await stack.app.warden.resync(INSTALLATION);
    results.push(measure(stack.fake, `resync, ${REPOS} repositories, nothing changed, next run`));
  } finally {
    await stack.close();
  }
}

/**
 * The sweep's reconcile of a due issue (docs/protocol.md §4), twice: a stale claim the app
 * never read, and one it read while live and whose thread nobody touched since, so its
 * re-read with the same token is answered 304 twice (docs/api-budget.md). Both issues are
 * labelled and assigned already, so their claim's own reconcile writes nothing.
 */
async function sweepRuns(results: Measured[]): Promise<void> {
  const repo = 'acme/widgets';
  const stack = await startStack({
    webhooks: 'capture',
    env: { CLAIMS_SWEEP_INTERVAL: '24h' },
    seed: (fake) => {
      fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: [repo] });
      fake.addUser('alice', { association: 'COLLABORATOR' });
    },
  });
  const { fake } = stack;
  const { store, queue } = stack.app.warden;
  const claimed = (title: string, at: Date) => {
    const number = fake.createIssue(repo, {
      title,
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
    fake.addComment(repo, number, {
      author: 'alice',
      body: renderClaimComment({
        session: `s-${number}`,
        lane: 'main',
        branch: `fix/${number}`,
        started: at,
        updated: at,
        stage: 'implementing',
        assignee: 'claim',
      }),
      createdAt: at,
      updatedAt: at,
    });
    return { installationId: INSTALLATION, owner: 'acme', repo: 'widgets', number };
  };
  // The sweep as its timer runs it, with a lease short enough to sweep twice in a row.
  const sweepDue = async (scenario: string) => {
    await new Promise((resolve) => setTimeout(resolve, 5)); // the 1 ms lease expires
    fake.clearRequests();
    const result = await sweepOnce({ store, queue, now: () => new Date(), intervalMs: 1 });
    if (result.queued !== 1) throw new Error(`recovery bench: the sweep queued ${result.queued}`);
    await queue.idle();
    results.push(measure(fake, scenario));
  };
  try {
    // Never read: its webhook is not delivered; due in the sweep's index.
    const cold = claimed('cold', new Date(Date.now() - 7 * HOUR));
    await store.setDeadline(cold, new Date(Date.now() - HOUR));
    await sweepDue('sweep, one due issue, its thread read for the first time');

    // Live for 3 more seconds when its webhook is delivered: read then, stale when swept.
    const at = new Date(Math.floor((Date.now() - 6 * HOUR + 3_000) / 1000) * 1000);
    const delivered = fake.deliveries.length;
    claimed('quiet', at);
    for (const d of fake.deliveries.slice(delivered)) await stack.deliver(d);
    await queue.idle();
    const staleIn = at.getTime() + 6 * HOUR + 1_000 - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, staleIn)));
    await sweepDue('sweep, one due issue, its thread unchanged since the app read it');
  } finally {
    await stack.close();
  }
}

/** One delivery recovery run over `failed` failed and 100 - `failed` delivered claims. */
async function recoveryRun(results: Measured[], failed: number): Promise<void> {
  const fake = await startFakeGitHub({ log: () => {} });
  const receiver = createServer((_req, res) => res.writeHead(200).end());
  const port = await freePort();
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  try {
    fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: ['acme/widgets'] });
    fake.addUser('alice', { association: 'COLLABORATOR' });
    const up = { url: `http://127.0.0.1:${port}/`, secret: 's' };
    const down = { url: `http://127.0.0.1:${await freePort()}/`, secret: 's' };
    for (let i = 0; i < 100; i++) {
      fake.setWebhookTarget(i < failed ? down : up);
      const n = fake.createIssue('acme/widgets');
      const at = new Date();
      fake.addComment('acme/widgets', n, {
        author: 'alice',
        body: renderClaimComment({
          session: `s-${i}`,
          lane: 'main',
          branch: `fix/${i}`,
          started: at,
          updated: at,
          stage: 'claimed',
          assignee: 'claim',
        }),
      });
      await fake.settled();
    }
    fake.setWebhookTarget(up);
    // Throttling off: the app paces these POSTs a second apart (docs/api-budget.md); the
    // count is the same.
    const octokit = new ProbotOctokit({
      auth: { appId: 1, privateKey: stackPrivateKey() },
      baseUrl: fake.apiUrl,
      throttle: { enabled: false },
    });
    fake.clearRequests();
    await recoverDeliveries({
      store: new MemoryStore(),
      log: pino({ level: 'silent' }),
      now: () => new Date(),
      appOctokit: async () => octokit as unknown as ProbotOctokit,
      max: 100,
      subscribed: (event, action) => `${event}.${action}` === 'issue_comment.created',
    });
    await fake.settled();
    results.push(measure(fake, `delivery recovery, ${failed} of 200 deliveries failed`));
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
    await fake.close();
  }
}

/**
 * What the periodic reads of docs/protocol.md §4 and §12 (the resync, the sweep's re-reads,
 * delivery recovery) cost of the rate limit, counted from the fake GitHub's request log; 304
 * answers are counted apart, as GitHub does not count them.
 */
export async function benchRecovery(): Promise<Section> {
  const results: Measured[] = [];
  await resyncRuns(results);
  await sweepRuns(results);
  await recoveryRun(results, 0);
  await recoveryRun(results, 100);
  return {
    id: 'recovery',
    title: 'Calls counted against the rate limit by the resync, the sweep and delivery recovery',
    notes: [
      'From the fake GitHub’s request log; 304 answers (conditional requests, not counted by GitHub) apart.',
      'The fake ties an ETag to the token, as GitHub does; the app keeps its installation token for its hour.',
    ],
    columns: ['scenario', 'counted', '304s', 'calls'],
    rows: results.map((r) => [
      r.scenario,
      String(r.counted),
      String(r.notModified),
      Object.entries(r.calls)
        .map(([route, n]) => `${n}× ${route}`)
        .join(', '),
    ]),
    data: results,
  };
}
