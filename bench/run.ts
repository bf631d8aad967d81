import { cpus, platform, release, totalmem } from 'node:os';
import { benchAction } from './action-bench.js';
import { benchApi } from './api-bench.js';
import { benchBoard } from './board-bench.js';
import { benchCalls } from './calls-bench.js';
import { benchConvergence } from './convergence-bench.js';
import { benchDecide } from './decide-bench.js';
import { benchDoor } from './door-bench.js';
import { benchEvents } from './events-bench.js';
import { benchFairness } from './fairness-bench.js';
import { benchGuard } from './guard-bench.js';
import { benchHosted } from './hosted-bench.js';
import { benchLimits } from './limits-bench.js';
import { benchMarkers } from './marker-bench.js';
import { benchMcp } from './mcp-bench.js';
import { benchMemory } from './memory-bench.js';
import { benchPaths } from './paths-bench.js';
import { benchPeople } from './people-bench.js';
import { benchReaders } from './readers-bench.js';
import { benchRecovery } from './recovery-bench.js';
import { benchRedisHa } from './redis-ha-bench.js';
import { benchReleaseAll } from './release-all-bench.js';
import { benchReview } from './review-bench.js';
import { fmt, renderSection, type Section } from './section.js';
import { benchSweep } from './sweep-bench.js';
import { benchThroughput } from './throughput-bench.js';
import { benchTraces } from './traces-bench.js';

/** The pure code: the marker reader and decide(), in calls per second. */
async function benchPure(): Promise<Section> {
  const rows = [...(await benchMarkers()), ...(await benchDecide())];
  return {
    id: 'pure',
    title: 'The pure core, in calls per second',
    notes: [],
    columns: ['benchmark', 'calls/s'],
    rows: rows.map((row) => [row.name, fmt(row.opsPerSec)]),
    data: rows,
  };
}

/** Every part of the benchmark, in the order printed; `--only id,id` picks some. */
const BENCHES: ReadonlyArray<readonly [string, () => Promise<Section>]> = [
  ['pure', benchPure],
  ['throughput', benchThroughput],
  ['calls', benchCalls],
  ['people', benchPeople],
  ['hosted', benchHosted],
  ['convergence', benchConvergence],
  ['fairness', benchFairness],
  ['sweep', benchSweep],
  ['memory', benchMemory],
  ['door', benchDoor],
  ['events', benchEvents],
  ['paths', benchPaths],
  ['guard', benchGuard],
  ['action', benchAction],
  ['api', benchApi],
  ['release-all', benchReleaseAll],
  ['review', benchReview],
  ['limits', benchLimits],
  ['readers', benchReaders],
  ['mcp', benchMcp],
  ['board', benchBoard],
  ['recovery', benchRecovery],
  ['redis-ha', benchRedisHa],
  ['traces', benchTraces],
];

/** The machine the figures come from: they mean nothing without it. */
function machine(): Record<string, string | number> {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown CPU',
    cores: cores.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}

/**
 * `npm run bench`: the figures of README's "Measured" section, side by side with what they are
 * compared to, in one run against the fake GitHub on loopback. Prints tables, or with `--json`
 * one JSON document; `--only throughput,calls` runs some parts only.
 */
async function run(argv: readonly string[]): Promise<void> {
  const json = argv.includes('--json');
  const onlyArg = argv.find((arg) => arg.startsWith('--only'));
  const only = onlyArg
    ? (onlyArg.includes('=') ? onlyArg.split('=')[1]! : (argv[argv.indexOf(onlyArg) + 1] ?? ''))
        .split(',')
        .filter(Boolean)
    : BENCHES.map(([id]) => id);
  const unknown = only.filter((id) => !BENCHES.some(([known]) => known === id));
  if (unknown.length > 0) {
    throw new Error(
      `unknown bench ${unknown.join(', ')}: use ${BENCHES.map(([id]) => id).join(', ')}`,
    );
  }
  const about = machine();
  if (!json) {
    console.log(
      `claim-warden benchmarks on ${about.cpu} ×${about.cores}, ${about.memoryGiB} GiB, ${about.os}, Node ${about.node}\n`,
    );
  }
  const started = performance.now();
  const sections: Section[] = [];
  for (const [id, bench] of BENCHES) {
    if (!only.includes(id)) continue;
    const section = await bench();
    sections.push(section);
    if (!json) console.log(`${renderSection(section, sections.length)}\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  if (json) {
    const results = Object.fromEntries(sections.map((s) => [s.id, s.data]));
    console.log(JSON.stringify({ machine: about, seconds, results }, null, 2));
  } else {
    console.log(`(${fmt(seconds)} s)`);
  }
}

await run(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
