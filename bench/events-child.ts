/**
 * The app side of the events benchmark (bench/events-bench.ts), in a process of its own so
 * its memory and event loop are its own. Run as `node --import tsx bench/events-child.ts`
 * with the app's environment (`CLAIMS_EVENTS_URL` at a receiver that never answers).
 *
 * Prints `{"ready":true,...}` once the app runs; on the line `go` on stdin publishes
 * `BENCH_EVENTS` events, ten per call as reconciles publish them, and prints
 * `{"published":true}`; on `report` prints its memory and the longest event-loop stall; then
 * waits for SIGTERM.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { main } from '../src/app/main.js';
import type { ClaimEvent } from '../src/events/claim-event.js';

function report(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(fields)}\n`);
}

/** An event as a reconcile derives it, with a distinct id. */
function benchEvent(i: number): ClaimEvent {
  const hex = i.toString(16).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${hex}`,
    type: 'claim.held',
    at: '2030-01-01T00:00:00Z',
    installation: 1,
    repository: 'acme/widgets',
    issue: 1 + (i % 5000),
    claim: {
      commentId: 1_000_000 + i,
      url: `https://github.com/acme/widgets/issues/${1 + (i % 5000)}#issuecomment-${1_000_000 + i}`,
      author: 'alice',
      session: `session-${i}`,
      lane: 'lane-1',
      branch: `feat/session-${i}`,
      stage: 'claimed',
      started: '2030-01-01T00:00:00Z',
      updated: '2030-01-01T00:00:00Z',
    },
  };
}

async function run(): Promise<void> {
  const running = await main(process.env);
  await running.warden.started;
  const events = running.warden.events;
  if (!events) throw new Error('bench/events-child.ts needs CLAIMS_EVENTS_URL');
  const count = Number(process.env.BENCH_EVENTS ?? 10_000);
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 10);
  report({ ready: true, port: running.port, rss: process.memoryUsage().rss });
  const lines = createInterface({ input: process.stdin });
  lines.on('line', async (line) => {
    if (line === 'go') {
      stalls.enable();
      for (let i = 0; i < count; i += 10) {
        const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) => benchEvent(i + j));
        await events.publish(batch);
        await new Promise((resolve) => setImmediate(resolve));
      }
      report({ published: true });
    } else if (line === 'report') {
      stalls.disable();
      clearInterval(sampler);
      report({
        rss: process.memoryUsage().rss,
        peakRss,
        maxStallMs: stalls.max / 1e6,
      });
    }
  });
  process.once('SIGTERM', () => {
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

run().catch((error: unknown) => {
  process.stderr.write(
    `bench events child failed: ${error instanceof Error ? error.stack : error}\n`,
  );
  process.exit(1);
});
