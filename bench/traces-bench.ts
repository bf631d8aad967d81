import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort, STACK_SECRET, stackEnv } from '../sandbox/stack.js';
import { renderClaimComment } from '../src/claims/comment.js';
import { signWebhook, startFakeGitHub } from '../test/fake-github/fake-github.js';
import { fmt, type Section } from './section.js';
import { type BenchChild, pinBench, spawnChild } from './spawn-child.js';
import { blast, type Payload } from './throughput-bench.js';

const TSX = import.meta.resolve('tsx');
const INSTRUMENT = fileURLToPath(new URL('../src/telemetry/instrument.ts', import.meta.url));
const WARM_UP_MS = 6000;
const ROUND_MS = 500;
const ROUNDS = 8;
const PROCESSES = 2;
const SETTLE_MS = 2000;
/** The share of deliveries traced in the sampled configuration. */
const SAMPLED = 0.1;

/**
 * The CPU time a child has used, all its threads (`/proc`, Linux), in ms; undefined elsewhere.
 * Per delivery it is steadier than throughput on a machine shared with other work.
 */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** The middle value (the mean of the middle two of an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** An OTLP/HTTP collector that takes every export and keeps nothing. */
async function startSink(): Promise<{
  url: string;
  exports: () => number;
  close(): Promise<void>;
}> {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    exports: () => exports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Webhook throughput with traces off and on (docs/operations.md "Traces"): the app started as
 * the image starts it (the instrumentation loaded first), once without
 * `OTEL_EXPORTER_OTLP_ENDPOINT` and once exporting every span to a collector on loopback,
 * next to a no-op Probot app; alternating rounds, as the throughput benchmark does. Goals:
 * off costs nothing measurable (its ratio to the no-op app is the throughput benchmark's),
 * on keeps at least 0.9 of off.
 */
export async function benchTraces(): Promise<Section> {
  const fake = await startFakeGitHub({ log: () => {} });
  fake.addInstallation({ id: 1, account: 'acme', repos: ['acme/widgets'] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  const n = fake.createIssue('acme/widgets', { title: 'Hot issue' });
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
  const payloadOf = (name: string, body: string): Payload => {
    fake.addComment('acme/widgets', n, { author: 'alice', body });
    const delivery = fake.deliveries.at(-1)!;
    return {
      name,
      event: delivery.event,
      body: delivery.body,
      signature: signWebhook(STACK_SECRET, delivery.body),
    };
  };
  const payloads = [
    payloadOf('comment without a marker', 'Looks good to me, thanks!'),
    payloadOf('trusted marker, one hot issue', marker),
  ];
  const sink = await startSink();
  const common = { LOG_LEVEL: 'fatal', CLAIMS_SWEEP_INTERVAL: '24h' };
  const preload = ['--import', TSX, '--import', INSTRUMENT];
  const children: BenchChild[] = [];
  const pinning = pinBench();
  const rows: string[][] = [];
  const data: Array<Record<string, unknown>> = [];
  try {
    // Each configuration runs in PROCESSES processes: one process can be slower than the next
    // for its whole life (one of five runs of one configuration took twice the CPU a delivery).
    const configs: Array<{ mode: 'app' | 'noop'; env: Record<string, string> }> = [
      { mode: 'noop', env: {} },
      { mode: 'app', env: {} },
      { mode: 'app', env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } },
      // Head sampling, as docs/operations.md "Traces" suggests for a busy installation.
      {
        mode: 'app',
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: String(SAMPLED),
        },
      },
    ];
    const processes: Array<{ config: number; child: BenchChild; port: number }> = [];
    for (let copy = 0; copy < PROCESSES; copy++)
      for (const [config, { mode, env }] of configs.entries()) {
        const child = await spawnChild(
          mode,
          stackEnv(fake, await freePort(), { ...common, ...env }),
          preload,
          pinning,
        );
        children.push(child);
        processes.push({ config, child, port: Number(child.ready.port) });
      }
    for (const payload of payloads) {
      for (const { port } of processes) await blast(port, payload, WARM_UP_MS / payloads.length);
      const rates = configs.map((): number[] => []);
      const cpu = configs.map(() => 0);
      const answered = configs.map(() => 0);
      const cpuBefore = processes.map(({ child }) => cpuMs(child.process.pid));
      let failed = 0;
      for (let round = 0; round < ROUNDS; round++) {
        for (const { config, port } of processes) {
          const result = await blast(port, payload, ROUND_MS);
          rates[config]!.push(result.perSecond);
          answered[config]! += result.perSecond * (ROUND_MS / 1000);
          failed += result.failed;
        }
      }
      // What the deliveries left running (reconciles, exports) counts too.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      let cpuKnown = true;
      for (const [i, { config, child }] of processes.entries()) {
        const before = cpuBefore[i];
        const after = cpuMs(child.process.pid);
        if (before === undefined || after === undefined) cpuKnown = false;
        else cpu[config]! += after - before;
      }
      const perDelivery = cpu.map((ms, config) => (cpuKnown ? ms / answered[config]! : undefined));
      const [, offCpu, onCpu, sampledCpu] = perDelivery;
      if (failed > 0) throw new Error(`traces: ${failed} deliveries of "${payload.name}" failed`);
      const [noopRate, offRate, onRate, sampledRate] = rates.map(median) as [
        number,
        number,
        number,
        number,
      ];
      rows.push([
        payload.name,
        `${fmt(offRate)}/s`,
        `${fmt(onRate)}/s`,
        fmt(onRate / offRate, 2),
        fmt(sampledRate / offRate, 2),
        fmt(offRate / noopRate, 2),
        offCpu === undefined || onCpu === undefined || sampledCpu === undefined
          ? '—'
          : `${[offCpu, onCpu, sampledCpu].map((ms) => fmt(ms * 1000)).join(' / ')} µs`,
      ]);
      data.push({
        payload: payload.name,
        noopRate,
        offRate,
        onRate,
        sampledRate,
        onOverOff: onRate / offRate,
        sampledOverOff: sampledRate / offRate,
        cpuMsPerDelivery: { off: offCpu, on: onCpu, sampled: sampledCpu },
      });
    }
    if (sink.exports() === 0) throw new Error('traces: the app with traces on exported nothing');
  } finally {
    for (const child of children) await child.stop();
    pinning?.release();
    await sink.close();
    await fake.close();
  }
  return {
    id: 'traces',
    title: 'Webhook throughput with traces off and on (OTLP/HTTP to a collector on loopback)',
    notes: [
      'The app as the image starts it (instrumentation loaded first); off: no OTEL_EXPORTER_OTLP_ENDPOINT.',
      `Each in ${PROCESSES} processes, ${ROUNDS} rounds of ${ROUND_MS} ms each, every process taking its turn, median;`,
      'against a no-op Probot app. The servers on a CPU of their own, the load on the others (taskset).',
      `Sampled: on with OTEL_TRACES_SAMPLER=parentbased_traceidratio, ${SAMPLED * 100} % of deliveries traced.`,
      'Goals: on/off ≥ 0.9; off/no-op as in the throughput benchmark (traces off cost nothing measurable).',
      "CPU a delivery: the process's CPU time (all threads) over its rounds and what they left running;",
      'its ratios are the throughput each would keep where CPU is what limits it.',
    ],
    columns: [
      'delivery',
      'traces off',
      'traces on',
      'on/off',
      'sampled/off',
      'off/no-op',
      'CPU a delivery off / on / sampled',
    ],
    rows,
    data,
  };
}
