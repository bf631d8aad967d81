import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, stackEnv } from '../sandbox/stack.js';
import { startReceiver } from '../test/events/receiver.js';
import { startFakeGitHub } from '../test/fake-github/fake-github.js';
import { fmt, type Section } from './section.js';

const CHILD = fileURLToPath(new URL('./events-child.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const MB = 1024 * 1024;
/** Events published to a receiver that never answers (before the bound: 7,202 sockets, 826 MB). */
const EVENTS = 10_000;
/** How long the sockets are given to open after the last publish. */
const HOLD_MS = 2_000;

/** The settings of one row besides the receiver's. */
interface Row {
  readonly name: string;
  readonly env: Record<string, string>;
}

const ROWS: readonly Row[] = [
  { name: 'defaults (concurrency 4, max pending 10,000)', env: {} },
  { name: 'CLAIMS_EVENTS_MAX_PENDING=1000', env: { CLAIMS_EVENTS_MAX_PENDING: '1000' } },
  { name: 'CLAIMS_EVENTS_CONCURRENCY=64', env: { CLAIMS_EVENTS_CONCURRENCY: '64' } },
];

/** The child's JSON lines, awaited one kind at a time. */
function lineReader(child: ChildProcess) {
  const waiting: Array<{ key: string; resolve: (fields: Record<string, unknown>) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let fields: Record<string, unknown>;
    try {
      fields = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const at = waiting.findIndex((w) => w.key in fields);
    if (at !== -1) waiting.splice(at, 1)[0]!.resolve(fields);
  });
  return (key: string) =>
    new Promise<Record<string, unknown>>((resolve) => waiting.push({ key, resolve }));
}

/**
 * The embedded event sender against a receiver that takes connections and never answers
 * (docs/protocol.md §13): the app in a child process publishes 10,000 events; the receiver
 * counts its connections at once, the parent times `/health` every 20 ms meanwhile.
 */
export async function benchEvents(): Promise<Section> {
  const fake = await startFakeGitHub({ log: () => {} });
  fake.addInstallation({ id: 1, account: 'acme', repos: ['acme/widgets'] });
  const rows: string[][] = [];
  const data: Array<Record<string, unknown>> = [];
  try {
    for (const row of ROWS) {
      const silent = await startReceiver(() => null);
      const port = await freePort();
      const env = stackEnv(fake, port, {
        CLAIMS_EVENTS_URL: silent.url,
        CLAIMS_EVENTS_SECRET: 'bench-events-secret-'.padEnd(40, 'x'),
        CLAIMS_SWEEP_INTERVAL: '24h',
        LOG_LEVEL: 'error',
        BENCH_EVENTS: String(EVENTS),
        ...row.env,
      });
      const child = spawn(process.execPath, ['--import', TSX, CHILD], {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const next = lineReader(child);
      try {
        const ready = await next('ready');
        const appUrl = `http://127.0.0.1:${port}`;
        let worstHealthMs = 0;
        let polling = true;
        const poller = (async () => {
          while (polling) {
            const started = performance.now();
            await fetch(`${appUrl}/health`).then((r) => r.arrayBuffer());
            worstHealthMs = Math.max(worstHealthMs, performance.now() - started);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        })();
        const published = next('published');
        child.stdin!.write('go\n');
        await published;
        await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
        const metrics = await (await fetch(`${appUrl}/metrics`)).text();
        const dropped = Number(
          /claims_events_dropped_total\{reason="full"\} (\d+)/.exec(metrics)?.[1] ?? 0,
        );
        const figures = next('peakRss');
        child.stdin!.write('report\n');
        const { peakRss, maxStallMs } = (await figures) as { peakRss: number; maxStallMs: number };
        polling = false;
        await poller;
        const before = ready.rss as number;
        rows.push([
          row.name,
          fmt(EVENTS - dropped),
          fmt(dropped),
          fmt(silent.connections.peak),
          `${fmt(before / MB)} → ${fmt(peakRss / MB)} MB`,
          `${fmt(maxStallMs)} ms`,
          `${fmt(worstHealthMs)} ms`,
        ]);
        data.push({
          settings: row.env,
          events: EVENTS,
          kept: EVENTS - dropped,
          dropped,
          peakSockets: silent.connections.peak,
          rssBefore: before,
          peakRss,
          maxStallMs,
          worstHealthMs,
        });
      } finally {
        if (child.exitCode === null) child.kill('SIGTERM');
        await exited;
        await silent.close();
      }
    }
  } finally {
    await fake.close();
  }
  return {
    id: 'events',
    title: `Outgoing events: ${fmt(EVENTS)} pending for a receiver that never answers`,
    notes: [
      'One app (embedded) in a child process publishes them ten at a time; the receiver counts',
      'its open connections; /health is timed every 20 ms; RSS sampled in the app every 10 ms.',
      'Issue 20, before the bound: 7,202 sockets, RSS 149 → 826 MB, a 6.8 s stall, /health 122 s.',
    ],
    columns: [
      'settings',
      'kept',
      'dropped',
      'peak sockets',
      'RSS before → peak',
      'longest stall',
      'worst /health',
    ],
    rows,
    data,
  };
}
