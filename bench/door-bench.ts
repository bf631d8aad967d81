import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { freePort, stackEnv, WEBHOOK_PATH } from '../sandbox/stack.js';
import { startFakeGitHub } from '../test/fake-github/fake-github.js';
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
  } finally {
    await fake.close();
  }
  return {
    id: 'door',
    title: `The webhook door: ${BODIES} large bodies with a bad signature at once`,
    notes: [
      'One replica (embedded, LOG_LEVEL=info) in a child process; RSS from /proc every 10 ms.',
      'Bodies over 25 MB get 413 (or the connection closes while they are still being sent);',
      'at most 100 MB of bodies are read at once, the others get 503.',
    ],
    columns: ['bodies', 'answers', 'peak RSS', 'RSS after'],
    rows,
    data,
  };
}
