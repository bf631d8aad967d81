import { cpus } from 'node:os';
import { benchDecide } from './decide-bench.js';
import { benchMarkers } from './marker-bench.js';

/**
 * `npm run bench`: prints a table of the measured figures (`--json` for machines). Figures
 * depend on the machine, so it prints the machine too.
 */
async function run(): Promise<void> {
  const json = process.argv.includes('--json');
  const rows = [...(await benchMarkers()), ...(await benchDecide())];
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node ${process.version}`;
  if (json) {
    console.log(JSON.stringify({ machine, results: rows }, null, 2));
    return;
  }
  console.log(`claim-warden benchmarks on ${machine}\n`);
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`${'benchmark'.padEnd(width)}  ops/s`);
  for (const row of rows) {
    console.log(`${row.name.padEnd(width)}  ${Math.round(row.opsPerSec).toLocaleString('en-US')}`);
  }
}

await run();
