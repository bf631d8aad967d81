import { Worker } from 'node:worker_threads';
import { freePort, STACK_SECRET, stackEnv } from '../sandbox/stack.js';
import { startFakeGitHub } from '../test/fake-github/fake-github.js';
import { agent, percentile, REPO, seedCallers } from './bench-cluster.js';
import { fmt, type Section } from './section.js';
import { spawnChild } from './spawn-child.js';

/** Readers of the claimed issue in the loaded rounds (docs/protocol.md §8 "Readers"). */
const READERS = 200;
const ROUNDS = 5;
/** The installation's write pacing of the bench (the default, GitHub's one second). */
const PACING_MS = 1000;

const reader = (i: number) => `reader-${String(i + 1).padStart(3, '0')}`;

interface ReadersRow {
  readonly readers: number;
  readonly p50: number;
  readonly p99: number;
  readonly statuses: Record<string, number>;
  /** The installation's requests on the claimed issue per second of the round. */
  readonly installationPerSecond: number;
  /** Reads of the issue (`GET …/issues/{n}`) by the installation per pacing interval. */
  readonly readsPerInterval: number;
  readonly readerCalls: number;
  readonly readerStatuses: Record<string, number>;
}

/**
 * A collaborator's API claim on a fresh issue, ROUNDS times, while `readers` read-only tokens
 * ask `GET …/claim` of the same issue in a loop (each within its own per-caller limits).
 */
async function claimWhileRead(readers: number): Promise<ReadersRow> {
  const fake = await startFakeGitHub({ log: () => {} });
  seedCallers(fake, 1);
  for (let i = 0; i < READERS; i++) fake.addUser(reader(i), { association: 'NONE' });
  // The app in a process of its own: the readers and the fake do not share its event loop.
  const app = await spawnChild(
    'app',
    stackEnv(fake, await freePort(), {
      LOG_LEVEL: 'fatal',
      CLAIMS_SWEEP_INTERVAL: '24h',
      CLAIMS_WRITE_PACING_MS: String(PACING_MS),
    }),
  );
  const appUrl = `http://127.0.0.1:${Number(app.ready.port)}`;
  fake.setWebhookTarget({ url: `${appUrl}/api/github/webhooks`, secret: STACK_SECRET });
  try {
    const url = `${appUrl}/api/claims/v1`;
    // A socket the server closed while idle (keep-alive) fails one call: counted, not fatal.
    const get = (token: string, n: number) =>
      fetch(`${url}/repos/${REPO}/issues/${n}/claim`, {
        headers: { authorization: `Bearer ${token}` },
      }).then(
        async (r) => {
          await r.text();
          return String(r.status);
        },
        () => 'socket closed',
      );
    const claim = async (n: number, session: string) => {
      const started = performance.now();
      const response = await fetch(`${url}/repos/${REPO}/issues/${n}/claim`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${fake.tokenFor(agent(0))}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ session, lane: 'm', branch: `feat/${session}` }),
      });
      await response.text();
      return { status: response.status, ms: performance.now() - started };
    };
    // Identity, visibility and permission cached for everyone, as for loops that called before.
    const tokens = Array.from({ length: readers }, (_, i) => fake.tokenFor(reader(i)));
    await claim(fake.createIssue(REPO), 'warm');
    const warm = fake.createIssue(REPO);
    for (const token of tokens) await get(token, warm);

    const ms: number[] = [];
    const statuses: Record<string, number> = {};
    const readerStatuses: Record<string, number> = {};
    let readerCalls = 0;
    let installationRequests = 0;
    let issueReads = 0;
    let elapsed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const n = fake.createIssue(REPO);
      const mark = fake.requests.length;
      const started = performance.now();
      const load = readersLoad(`${url}/repos/${REPO}/issues/${n}/claim`, tokens);
      await load.started;
      const answer = await claim(n, `s-${round}`);
      const readerCounts = await load.stop();
      for (const [status, count] of Object.entries(readerCounts)) {
        readerCalls += count;
        readerStatuses[status] = (readerStatuses[status] ?? 0) + count;
      }
      elapsed += performance.now() - started;
      ms.push(answer.ms);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const onIssue = fake.requests
        .slice(mark)
        .filter(
          (r) => r.actor === fake.botLogin && r.path.startsWith(`/repos/${REPO}/issues/${n}`),
        );
      installationRequests += onIssue.length;
      issueReads += onIssue.filter(
        (r) => r.method === 'GET' && r.path === `/repos/${REPO}/issues/${n}`,
      ).length;
    }
    return {
      readers,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
      statuses,
      installationPerSecond: installationRequests / (elapsed / 1000),
      readsPerInterval: issueReads / (elapsed / PACING_MS),
      readerCalls,
      readerStatuses,
    };
  } finally {
    fake.setWebhookTarget(undefined);
    await fake.settled();
    await app.stop();
    await fake.close();
  }
}

/**
 * The readers' loops, in a thread of their own so that they share the event loop of neither
 * the app (a child process) nor the fake GitHub and the writer (this thread). Plain
 * JavaScript: the worker needs no loader.
 */
const READERS_LOOP = `
const { workerData, parentPort } = require('node:worker_threads');
let reading = true;
parentPort.on('message', () => { reading = false; });
const counts = {};
const count = (status) => { counts[status] = (counts[status] ?? 0) + 1; };
const loops = workerData.tokens.map(async (token) => {
  while (reading) {
    try {
      const response = await fetch(workerData.url, { headers: { authorization: 'Bearer ' + token } });
      await response.text();
      count(String(response.status));
    } catch {
      // A socket the server closed while idle (keep-alive) fails one call: counted.
      count('socket closed');
    }
  }
});
parentPort.postMessage({ started: true });
Promise.all(loops).then(() => parentPort.postMessage({ counts }));
`;

function readersLoad(url: string, tokens: readonly string[]) {
  if (tokens.length === 0) {
    return { started: Promise.resolve(), stop: async (): Promise<Record<string, number>> => ({}) };
  }
  const worker = new Worker(READERS_LOOP, { eval: true, workerData: { url, tokens } });
  const messages: Array<(message: { started?: true; counts?: Record<string, number> }) => void> =
    [];
  worker.on('message', (message) => messages.shift()?.(message));
  const next = () =>
    new Promise<{ started?: true; counts?: Record<string, number> }>((resolve) =>
      messages.push(resolve),
    );
  const started = next();
  return {
    started,
    async stop(): Promise<Record<string, number>> {
      const done = next();
      worker.postMessage('stop');
      const { counts = {} } = await done;
      await worker.terminate();
      return counts;
    },
  };
}

function counts(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .map(([status, n]) => `${fmt(n)}× ${status}`)
    .join(', ');
}

/** A writer's claim with 0 and with 200 readers of its issue, and what the readers cost. */
export async function benchReaders(): Promise<Section> {
  const quiet = await claimWhileRead(0);
  const loaded = await claimWhileRead(READERS);
  const rows = [quiet, loaded].map((r) => [
    `API claim with ${r.readers} concurrent readers of the same issue`,
    `p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms (${fmt(r.p50 / quiet.p50, 2)}× quiet; goal ≤ 1.2×)`,
    `${counts(r.statuses)}; installation ${fmt(r.installationPerSecond, 1)} requests/s on the issue, ${fmt(r.readsPerInterval, 2)} issue reads per ${PACING_MS} ms (goal ≤ 1 + the claim's own)${r.readers ? `; readers: ${counts(r.readerStatuses)}` : ''}`,
  ]);
  return {
    id: 'readers',
    title: 'Readers never cost a writer',
    notes: [
      `One embedded replica in a process of its own, CLAIMS_WRITE_PACING_MS=${PACING_MS}, default per-caller limits; ${ROUNDS} claims on fresh issues each.`,
      'Installation requests: the app’s own requests on the claimed issue during the round (reads, its reconcile, its writes).',
    ],
    columns: ['measure', 'figure', 'detail'],
    rows,
    data: { quiet, loaded },
  };
}
