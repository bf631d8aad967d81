import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { freePort, STACK_SECRET, stackEnv, WEBHOOK_PATH } from '../sandbox/stack.js';
import { renderClaimComment } from '../src/claims/comment.js';
import { signWebhook, startFakeGitHub } from '../test/fake-github/fake-github.js';
import { fmt, type Section } from './section.js';
import { type BenchChild, spawnChild } from './spawn-child.js';

/** Requests in flight at once, as a busy GitHub App sees them. */
const CONCURRENCY = 16;
/** Both servers are warmed up this long before the first figure (the JIT settles). */
const FIRST_WARM_UP_MS = 3000;
const WARM_UP_MS = 500;
const ROUND_MS = 750;
const ROUNDS = 6;

/** One signed delivery, sent again and again with a fresh delivery id each time. */
export interface Payload {
  readonly name: string;
  readonly event: string;
  readonly body: string;
  readonly signature: string;
}

/** Posts `payload` to `port` with CONCURRENCY requests in flight for `ms`; deliveries per second. */
export async function blast(
  port: number,
  payload: Payload,
  ms: number,
): Promise<{ perSecond: number; failed: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(payload.body)),
    'user-agent': 'GitHub-Hookshot/bench',
    'x-github-event': payload.event,
    'x-hub-signature-256': payload.signature,
  };
  const post = () =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port,
          path: WEBHOOK_PATH,
          method: 'POST',
          headers: { ...headers, 'x-github-delivery': randomUUID() },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(payload.body);
    });
  let done = 0;
  let failed = 0;
  const started = performance.now();
  const deadline = started + ms;
  const worker = async () => {
    while (performance.now() < deadline) {
      const status = await post();
      if (status >= 200 && status < 300) done++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { perSecond: done / seconds, failed };
}

/**
 * Webhook throughput: signed `issue_comment.created` deliveries per second that the app
 * answers, next to a Probot app whose handler does nothing, on the same Probot server setup.
 * Both servers run in child processes (the load and the fake GitHub stay in this one), and
 * are measured in alternating rounds so that drift on a shared machine hits both alike.
 */
export async function benchThroughput(): Promise<Section> {
  const fake = await startFakeGitHub({ log: () => {} });
  fake.addInstallation({ id: 1, account: 'acme', repos: ['acme/widgets'] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  fake.addUser('mallory', { association: 'NONE' });
  const n = fake.createIssue('acme/widgets', { title: 'Hot issue' });
  // The fake records each comment's delivery; the bench sends their bodies itself.
  fake.setWebhookTarget({ capture: true });
  const at = new Date();
  const marker = renderClaimComment({
    session: 'bench',
    lane: 'main',
    branch: 'fix/hot',
    started: at,
    updated: at,
    stage: 'implementing',
    assignee: 'claim',
  });
  const payloadOf = (name: string, author: string, body: string): Payload => {
    fake.addComment('acme/widgets', n, { author, body });
    const delivery = fake.deliveries.at(-1)!;
    return {
      name,
      event: delivery.event,
      body: delivery.body,
      signature: signWebhook(STACK_SECRET, delivery.body),
    };
  };
  const payloads = [
    payloadOf('comment without a marker', 'alice', 'Looks good to me, thanks!'),
    payloadOf('marker from an untrusted author', 'mallory', marker),
    payloadOf('trusted marker, one hot issue', 'alice', marker),
  ];

  const common = { LOG_LEVEL: 'fatal', CLAIMS_SWEEP_INTERVAL: '24h' };
  let app: BenchChild | undefined;
  let noop: BenchChild | undefined;
  const rows: string[][] = [];
  const data: Array<Record<string, unknown>> = [];
  try {
    app = await spawnChild('app', stackEnv(fake, await freePort(), common));
    noop = await spawnChild('noop', stackEnv(fake, await freePort(), common));
    const appPort = Number(app.ready.port);
    const noopPort = Number(noop.ready.port);
    for (const payload of payloads) {
      await blast(noopPort, payload, FIRST_WARM_UP_MS / payloads.length);
      await blast(appPort, payload, FIRST_WARM_UP_MS / payloads.length);
    }
    for (const payload of payloads) {
      await blast(noopPort, payload, WARM_UP_MS);
      await blast(appPort, payload, WARM_UP_MS);
      let appSum = 0;
      let noopSum = 0;
      let failed = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const base = await blast(noopPort, payload, ROUND_MS);
        const ours = await blast(appPort, payload, ROUND_MS);
        noopSum += base.perSecond;
        appSum += ours.perSecond;
        failed += base.failed + ours.failed;
      }
      const appRate = appSum / ROUNDS;
      const noopRate = noopSum / ROUNDS;
      rows.push([
        payload.name,
        `${fmt(appRate)}/s`,
        `${fmt(noopRate)}/s`,
        fmt(appRate / noopRate, 2),
      ]);
      if (failed > 0)
        throw new Error(`throughput: ${failed} deliveries of "${payload.name}" failed`);
      data.push({
        payload: payload.name,
        appPerSecond: appRate,
        noopPerSecond: noopRate,
        ratio: appRate / noopRate,
        failed,
      });
    }
  } finally {
    await app?.stop();
    await noop?.stop();
    await fake.close();
  }
  return {
    id: 'throughput',
    title: 'Webhook throughput: signed issue_comment.created deliveries answered per second',
    notes: [
      `HTTP to /api/github/webhooks, ${CONCURRENCY} in flight, keep-alive, a fresh delivery id each;`,
      `servers in child processes, LOG_LEVEL=fatal on both; ${ROUNDS} alternating rounds of ${ROUND_MS} ms, mean.`,
      'The hot-issue row enqueues a reconcile per delivery; they coalesce and run (2 reads each)',
      'against the fake GitHub while the load goes on.',
    ],
    columns: ['delivery', 'claim-warden', 'no-op Probot', 'ratio'],
    rows,
    data,
  };
}
