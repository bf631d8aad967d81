/**
 * The early seconds (issue 24, point 4): while GitHub cannot be reached at start-up, the
 * app's own routes say it is starting (503 with retry-after) instead of Probot's bare 404,
 * /metrics is served, /health tells the truth about the store, and the retry log says the
 * connection failed instead of a made-up HTTP status.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { main, type RunningApp } from '../../src/app/main.js';
import { startFakeGitHub } from '../fake-github/fake-github.js';
import { freePort, logSink, PRIVATE_KEY, WEBHOOK_SECRET, waitFor } from '../helpers/app-harness.js';

const METRICS_TOKEN = 'startup-metrics-token-0123456789';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts main() against a GitHub nobody listens for; resolves once a retry is logged. */
async function startUnreachable() {
  const githubPort = await freePort();
  const lines: string[] = [];
  let port = 0;
  const starting = main(
    {
      APP_ID: '1',
      PRIVATE_KEY,
      WEBHOOK_SECRET,
      PORT: '0',
      HOST: '127.0.0.1',
      GHE_HOST: `127.0.0.1:${githubPort}`,
      GHE_PROTOCOL: 'http',
      LOG_LEVEL: 'info',
      CLAIMS_SWEEP_INTERVAL: '1h',
      CLAIMS_METRICS_TOKEN: METRICS_TOKEN,
    },
    {
      logDestination: logSink(lines),
      startup: { firstDelayMs: 20, maxDelayMs: 100 },
      onListening: (listening) => {
        port = listening;
      },
    },
  );
  await waitFor(() => lines.some((l) => l.includes('GitHub not reachable')), 'a retry logged');
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  return { githubPort, lines, starting, url };
}

describe('while GitHub cannot be reached at start-up', () => {
  it('the board, the claims API and /mcp answer 503 "starting" with retry-after, not a bare 404', async () => {
    const { githubPort, starting, url } = await startUnreachable();

    const board = await fetch(url('/claims'));
    const api = await fetch(url('/api/claims/v1/repos/acme/widgets/issues/1/claim'), {
      headers: { authorization: 'Bearer some-user-token' },
    });

    expect(board.status).toBe(503);
    expect(board.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await board.text()).toMatch(/starting/);
    expect(api.status).toBe(503);
    expect(api.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await api.json()).toMatchObject({
      status: 'starting',
      error: { code: 'UNVERIFIABLE', message: expect.stringMatching(/starting/) },
    });
    const mcp = await fetch(url('/mcp'), {
      method: 'POST',
      headers: { authorization: 'Bearer some-user-token', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(503);
    expect(mcp.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    // Other paths are still Probot's.
    expect((await fetch(url('/no-such-page'))).status).toBe(404);

    const fake = await startFakeGitHub({ port: githubPort, log: () => {} });
    cleanups.push(() => fake.close());
    const running: RunningApp = await starting;
    cleanups.push(() => running.stop());
    await running.warden.started;
    expect((await fetch(url('/claims'))).status).not.toBe(503);
  });

  it('/metrics is served (behind its token) and says the app has not started', async () => {
    const { githubPort, starting, url } = await startUnreachable();

    const open = await fetch(url('/metrics'));
    const scrape = await fetch(url('/metrics'), {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });

    expect(open.status).toBe(401);
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    expect(text).toMatch(/^claims_started 0$/m);
    expect(text).toMatch(/^claims_startup_retries_total [1-9]\d*$/m);

    const fake = await startFakeGitHub({ port: githubPort, log: () => {} });
    cleanups.push(() => fake.close());
    const running: RunningApp = await starting;
    cleanups.push(() => running.stop());
    await running.warden.started;
    const after = await fetch(url('/metrics'), {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(await after.text()).toMatch(/^claims_started 1$/m);
  });

  it('/health says "starting" and that the in-process store answers', async () => {
    const { githubPort, starting, url } = await startUnreachable();

    const health = await fetch(url('/health'));

    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'starting', store: true });

    const fake = await startFakeGitHub({ port: githubPort, log: () => {} });
    cleanups.push(() => fake.close());
    const running: RunningApp = await starting;
    cleanups.push(() => running.stop());
  });

  it('the retry log says it could not connect to the host, with no HTTP status', async () => {
    const { githubPort, lines, starting } = await startUnreachable();

    const retry = JSON.parse(lines.find((l) => l.includes('GitHub not reachable'))!);

    expect(retry).not.toHaveProperty('status');
    expect(retry.reason).toMatch(new RegExp(`^could not connect to 127\\.0\\.0\\.1:${githubPort}`));
    expect(retry.reason).toMatch(/ECONNREFUSED/);

    const fake = await startFakeGitHub({ port: githubPort, log: () => {} });
    cleanups.push(() => fake.close());
    const running: RunningApp = await starting;
    cleanups.push(() => running.stop());
  });
});
