import { afterEach } from 'vitest';
import { main, type RunningApp } from '../../src/app/main.js';
import { startFakeGitHub } from '../fake-github/fake-github.js';
import { freePort, githubEnv, logSink, waitFor } from '../helpers/app-harness.js';

/** The environment of `npm start` against GitHub at 127.0.0.1:`githubPort`, on any free port. */
export function startEnv(
  githubPort: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...githubEnv(`127.0.0.1:${githubPort}`),
    PORT: '0',
    LOG_LEVEL: 'info',
    CLAIMS_SWEEP_INTERVAL: '1h',
    ...extra,
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `cleanup` after the current test, the last registered first. */
export function afterTest(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** Waits until `running` has started, and stops it after the test. */
export async function started(running: RunningApp): Promise<RunningApp> {
  afterTest(() => running.stop());
  await running.warden.started;
  return running;
}

/**
 * Starts main() against a GitHub nobody listens for; resolves once a retry is logged.
 * `githubAnswers()` then starts a fake GitHub on that port and resolves once the app started.
 */
export async function startUnreachable(extra: Record<string, string> = {}) {
  const githubPort = await freePort();
  const lines: string[] = [];
  let port = 0;
  const starting = main(startEnv(githubPort, extra), {
    logDestination: logSink(lines),
    startup: { firstDelayMs: 20, maxDelayMs: 100 },
    onListening: (listening) => {
      port = listening;
    },
  });
  await waitFor(() => lines.some((l) => l.includes('GitHub not reachable')), 'a retry logged');
  const githubAnswers = async () => {
    const fake = await startFakeGitHub({ port: githubPort, log: () => {} });
    afterTest(() => fake.close());
    return started(await starting);
  };
  return {
    githubPort,
    lines,
    /** The port the app listens on. */
    get port() {
      return port;
    },
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    githubAnswers,
  };
}
