/**
 * The server side of the benchmark, in a process of its own so that the load generator and the
 * fake GitHub (in the parent) do not share its event loop. Run as
 * `node [--expose-gc] --import tsx bench/child.ts <mode>` with the app's environment:
 *
 * - `app`: claim-warden as `npm start` runs it (main()).
 * - `noop`: a stock Probot app (Probot's own webhook middleware) whose handler does nothing.
 * - `memory`: the app, then 100,000 live claims in its index; reports resident memory.
 *
 * Prints one JSON line on stdout when ready (and, for `memory`, the figures), then waits for
 * SIGTERM.
 */
import { pino } from 'pino';
import { Probot, Server } from 'probot';
import { main } from '../src/app/main.js';
import { readSettings } from '../src/config/read-settings.js';

/** How many live claims the memory figure indexes. */
const MEMORY_CLAIMS = 100_000;

function report(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(fields)}\n`);
}

async function startNoop(): Promise<{ port: number; stop(): Promise<void> }> {
  const settings = readSettings(process.env);
  const log = pino({ level: settings.logLevel, name: 'noop' });
  // A stock Probot app on Probot's own webhook middleware, with a handler that does nothing.
  const server = new Server({
    host: settings.host,
    port: settings.port,
    log,
    Probot: Probot.defaults({
      appId: settings.appId,
      privateKey: settings.privateKey,
      secret: settings.webhookSecret,
      log,
      ...(settings.githubBaseUrl ? { baseUrl: settings.githubBaseUrl } : {}),
    }),
  });
  await server.load((app) => {
    app.on('issue_comment', async () => {});
  });
  await server.start();
  return { port: server.port, stop: () => server.stop() };
}

/** Resident and heap memory after a full collection (needs --expose-gc). */
async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the memory benchmark needs node --expose-gc');
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage();
}

async function memory(): Promise<void> {
  const running = await main(process.env);
  await running.warden.started;
  const before = await settledMemory();
  const { store } = running.warden;
  // Realistic keys: 100 installations, 10 repositories each, 100 issues per repository;
  // deadlines spread over the next six hours, as heartbeats would leave them.
  const now = Date.now();
  for (let i = 0; i < MEMORY_CLAIMS; i++) {
    const installationId = 10_000 + (i % 100);
    await store.setDeadline(
      {
        installationId,
        owner: `organisation-${installationId}`,
        repo: `repository-${Math.floor(i / 100) % 10}`,
        number: 1 + Math.floor(i / 1000) * 100 + (i % 100),
      },
      new Date(now + 60_000 + ((i * 7919) % (6 * 3_600_000))),
    );
  }
  const indexed = await store.countDeadlines();
  const after = await settledMemory();
  report({
    ready: true,
    indexed,
    before: { rss: before.rss, heapUsed: before.heapUsed },
    after: { rss: after.rss, heapUsed: after.heapUsed },
  });
  await running.stop();
}

async function run(mode: string | undefined): Promise<void> {
  if (mode === 'memory') {
    await memory();
    return;
  }
  let stop: () => Promise<void>;
  if (mode === 'app') {
    const running = await main(process.env);
    await running.warden.started;
    report({ ready: true, port: running.port });
    stop = () => running.stop();
  } else if (mode === 'noop') {
    const server = await startNoop();
    report({ ready: true, port: server.port });
    stop = () => server.stop();
  } else {
    throw new Error(`bench/child.ts: unknown mode ${mode}; use app, noop or memory`);
  }
  process.once('SIGTERM', () => {
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

run(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`bench child failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
