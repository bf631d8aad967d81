import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { freePort, STACK_SECRET, stackEnv, WEBHOOK_PATH } from '../sandbox/stack.js';
import {
  type Answer,
  genuineDelivery,
  rawRequest,
  slowSender,
  unsignedHeaders,
  writeRepeated,
} from '../test/app/door-clients.js';
import { type FakeGitHub, startFakeGitHub } from '../test/fake-github/fake-github.js';
import { fmt, type Section } from './section.js';
import { spawnChild } from './spawn-child.js';

const MB = 1024 * 1024;
/** Bodies sent at once in each phase (issue 10: forty 25 MB bodies grew RSS to 3.4 GB). */
const BODIES = 40;

/** One way of sending a large body the app must refuse or bound. */
interface Phase {
  readonly name: string;
  readonly bytes: number;
  /** Without a content-length (chunked): the app can only count while it reads. */
  readonly chunked: boolean;
}

const PHASES: readonly Phase[] = [
  { name: '26 MB, content-length declared', bytes: 26 * MB, chunked: false },
  { name: '26 MB, chunked (no content-length)', bytes: 26 * MB, chunked: true },
  { name: '24 MB, under the limit, bad signature', bytes: 24 * MB, chunked: false },
];

/** A process's resident memory now, in bytes, from /proc (Linux). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/** Posts one unsigned-looking (bad signature) webhook of `phase.bytes`; its status or error code. */
function post(port: number, body: Buffer, phase: Phase): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: WEBHOOK_PATH,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issue_comment',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
          ...(phase.chunked ? {} : { 'content-length': String(phase.bytes) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      },
    );
    // The app closes the connection after a 413 while the rest is still being sent.
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    if (phase.chunked) {
      const chunk = body.subarray(0, MB);
      for (let sent = 0; sent < phase.bytes; sent += MB) req.write(chunk);
      req.end();
    } else {
      req.end(body.subarray(0, phase.bytes));
    }
  });
}

/** Issue 20 #3's storm: four senders trickling a byte every 2 s, ten 20 MB unsigned bodies. */
const SLOW_SENDERS = 4;
const SLOW_EVERY_MS = 2000;
const LARGE_BODIES = 10;
const LARGE_BYTES = 20 * MB;
/** Genuine deliveries, one every GENUINE_EVERY_MS, all sent while the slow senders are in flight. */
const GENUINE = 19;
const GENUINE_EVERY_MS = 450;

/** Answers counted, as `3× 408, 1× closed`. */
function tally(answers: readonly (Answer | string)[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(String(answer), (counts.get(String(answer)) ?? 0) + 1);
  return [...counts].map(([answer, n]) => `${n}× ${answer}`).join(', ');
}

/** Sends LARGE_BODIES unsigned 20 MB bodies at once (content-length declared) to `port`. */
function largeUnsigned(port: number) {
  const piece = Buffer.alloc(MB, 0x61);
  return Array.from({ length: LARGE_BODIES }, () => {
    const request = rawRequest(port, WEBHOOK_PATH, {
      ...unsignedHeaders(),
      'content-length': String(LARGE_BYTES),
    });
    void writeRepeated(request.socket, piece, LARGE_BYTES / MB);
    return request;
  });
}

/** A fresh replica, its RSS once warm, and a sampler of its peak. */
async function freshReplica(fake: FakeGitHub) {
  const env = stackEnv(fake, await freePort(), { LOG_LEVEL: 'info', CLAIMS_SWEEP_INTERVAL: '24h' });
  const child = await spawnChild('app', env);
  const pid = child.process.pid!;
  const port = Number(child.ready.port);
  // Warm the delivery path so the figure is the flood's, not the first delivery's.
  await genuineDelivery(port, STACK_SECRET);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 10);
  return {
    child,
    port,
    before,
    peak: () => peak,
    stop: async () => {
      clearInterval(sampler);
      await child.stop();
    },
  };
}

/** Issue 20 #3's figure alone: ten unsigned 20 MB bodies at once on a fresh replica. */
async function tenLarge(fake: FakeGitHub, rows: string[][], data: Array<Record<string, unknown>>) {
  const replica = await freshReplica(fake);
  try {
    const answers = await Promise.all(largeUnsigned(replica.port).map((r) => r.answer));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const growth = replica.peak() - replica.before;
    rows.push([
      `${LARGE_BODIES}× 20 MB unsigned at once (fresh replica)`,
      tally(answers),
      `${fmt(replica.peak() / MB)} MB`,
      `+${fmt(growth / MB)} MB over ${fmt(replica.before / MB)} MB`,
    ]);
    data.push({ phase: 'ten-large', answers, rssBefore: replica.before, rssGrowth: growth });
  } finally {
    await replica.stop();
  }
}

/**
 * The storm on a fresh replica (its real limits: the 10 s deadline, the 64 MB budget): genuine
 * signed deliveries sent one every 450 ms while four slow senders and ten 20 MB unsigned
 * bodies (content-length declared, sent at full speed) arrive. RSS growth is the peak over
 * the RSS just before.
 */
async function storm(fake: FakeGitHub, rows: string[][], data: Array<Record<string, unknown>>) {
  const replica = await freshReplica(fake);
  const { port, before } = replica;
  try {
    const slow = Array.from({ length: SLOW_SENDERS }, () => slowSender(port, SLOW_EVERY_MS, 1000));
    const large = largeUnsigned(port);
    const started = performance.now();
    const genuine = await Promise.all(
      Array.from({ length: GENUINE }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * GENUINE_EVERY_MS));
        const sent = performance.now();
        const answer = await genuineDelivery(port, STACK_SECRET);
        return { answer, ms: performance.now() - sent };
      }),
    );
    const slowAnswers = await Promise.all(slow.map((sender) => sender.answer));
    const slowMs = performance.now() - started;
    const largeAnswers = await Promise.all(large.map((request) => request.answer));
    const peak = replica.peak();
    for (const sender of slow) sender.stop();
    const ok = genuine.filter(({ answer }) => typeof answer === 'number' && answer < 300).length;
    const slowest = Math.max(...genuine.map(({ ms }) => ms));
    rows.push([
      `storm: ${GENUINE} genuine deliveries during ${SLOW_SENDERS} slow senders + ${LARGE_BODIES}× 20 MB unsigned`,
      `${ok}/${GENUINE} 2xx (${tally(genuine.map(({ answer }) => answer))}), slowest ${fmt(slowest)} ms`,
      `${fmt(peak / MB)} MB`,
      `+${fmt((peak - before) / MB)} MB over ${fmt(before / MB)} MB`,
    ]);
    rows.push([
      'storm: the slow senders / the 20 MB unsigned bodies',
      `${tally(slowAnswers)} (after ${fmt(slowMs / 1000, 1)} s) / ${tally(largeAnswers)}`,
      '-',
      '-',
    ]);
    data.push({
      phase: 'storm',
      genuine: genuine.length,
      genuine2xx: ok,
      slowestGenuineMs: slowest,
      slowSenders: slowAnswers,
      slowSendersCutAfterMs: slowMs,
      large: largeAnswers,
      rssBefore: before,
      peakRss: peak,
      rssGrowth: peak - before,
    });
  } finally {
    await replica.stop();
  }
}

/**
 * The webhook door under a flood: one replica (embedded, `LOG_LEVEL=info`) in a child
 * process; 40 large bodies with a bad signature sent at once, three ways; the child's
 * resident memory sampled every 10 ms from /proc.
 */
export async function benchDoor(): Promise<Section> {
  const fake = await startFakeGitHub({ log: () => {} });
  fake.addInstallation({ id: 1, account: 'acme', repos: ['acme/widgets'] });
  const body = Buffer.alloc(26 * MB, 0x61);
  Buffer.from('{"action":"created","pad":"').copy(body, 0);
  const rows: string[][] = [];
  const data: Array<Record<string, unknown>> = [];
  try {
    const env = stackEnv(fake, await freePort(), {
      LOG_LEVEL: 'info',
      CLAIMS_SWEEP_INTERVAL: '24h',
    });
    const child = await spawnChild('app', env);
    const pid = child.process.pid!;
    const port = Number(child.ready.port);
    const idle = rssOf(pid);
    rows.push(['idle, before the flood', '-', `${fmt(idle / MB)} MB`, `${fmt(idle / MB)} MB`]);
    try {
      for (const phase of PHASES) {
        let peak = rssOf(pid);
        const sampler = setInterval(() => {
          peak = Math.max(peak, rssOf(pid));
        }, 10);
        const answers = await Promise.all(
          Array.from({ length: BODIES }, () => post(port, body, phase)),
        );
        clearInterval(sampler);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const after = rssOf(pid);
        const counts = new Map<string, number>();
        for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
        const summary = [...counts].map(([answer, n]) => `${n}× ${answer}`).join(', ');
        rows.push([phase.name, summary, `${fmt(peak / MB)} MB`, `${fmt(after / MB)} MB`]);
        data.push({
          phase: phase.name,
          answers: Object.fromEntries(counts),
          peakRss: peak,
          afterRss: after,
        });
      }
      const longest = Math.max(...child.output.map((line) => line.length));
      data.push({ idleRss: idle, longestLogLine: longest });
      rows.push(['longest log line of the whole flood', `${fmt(longest)} characters`, '-', '-']);
    } finally {
      await child.stop();
    }
    await tenLarge(fake, rows, data);
    await storm(fake, rows, data);
  } finally {
    await fake.close();
  }
  return {
    id: 'door',
    title: `The webhook door: ${BODIES} large bodies with a bad signature at once`,
    notes: [
      'One replica (embedded, LOG_LEVEL=info) in a child process; RSS from /proc every 10 ms.',
      'Bodies over 25 MB get 413 (or the connection closes while they are still being sent);',
      'at most 64 MB of bodies are held at once (charged by bytes received; 16 MB of it only for',
      'bodies up to 1 MB), the others get 503; a bad signature is 401 once the body is in.',
      `Storm (goal: every genuine delivery 2xx within GitHub's 10 s, RSS growth < 100 MB): a fresh`,
      `replica; ${GENUINE} signed deliveries, one every ${GENUINE_EVERY_MS} ms, while ${SLOW_SENDERS} senders trickle`,
      `a byte every ${SLOW_EVERY_MS / 1000} s (cut off with 408 at 10 s) and ${LARGE_BODIES} unsigned 20 MB bodies arrive at once.`,
    ],
    columns: ['bodies', 'answers', 'peak RSS', 'RSS after (storm: growth)'],
    rows,
    data,
  };
}
