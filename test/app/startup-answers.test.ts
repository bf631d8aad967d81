/**
 * The early seconds: while GitHub cannot be reached at start-up, the
 * app's own routes say it is starting (503 with retry-after) instead of Probot's bare 404,
 * /metrics is served, /health tells the truth about the store, and the retry log says the
 * connection failed instead of a made-up HTTP status.
 */
import { describe, expect, it } from 'vitest';
import { startUnreachable } from './startup-helpers.js';

const METRICS_TOKEN = 'startup-metrics-token-0123456789';

const unreachable = () => startUnreachable({ CLAIMS_METRICS_TOKEN: METRICS_TOKEN });

describe('while GitHub cannot be reached at start-up', () => {
  it('the board, the claims API and /mcp answer 503 "starting" with retry-after, not a bare 404', async () => {
    const { githubAnswers, url } = await unreachable();

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

    await githubAnswers();
    expect((await fetch(url('/claims'))).status).not.toBe(503);
  });

  it('/metrics is served (behind its token) and says the app has not started', async () => {
    const { githubAnswers, url } = await unreachable();

    const open = await fetch(url('/metrics'));
    const scrape = await fetch(url('/metrics'), {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });

    expect(open.status).toBe(401);
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    expect(text).toMatch(/^claims_started 0$/m);
    expect(text).toMatch(/^claims_startup_retries_total [1-9]\d*$/m);

    await githubAnswers();
    const after = await fetch(url('/metrics'), {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(await after.text()).toMatch(/^claims_started 1$/m);
  });

  it('/health says "starting" and that the in-process store answers', async () => {
    const { githubAnswers, url } = await unreachable();

    const health = await fetch(url('/health'));

    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'starting', store: true });

    await githubAnswers();
  });

  it('the retry log says it could not connect to the host, with no HTTP status', async () => {
    const { githubPort, lines, githubAnswers } = await unreachable();

    const retry = JSON.parse(lines.find((l) => l.includes('GitHub not reachable'))!);

    expect(retry).not.toHaveProperty('status');
    expect(retry.reason).toMatch(new RegExp(`^could not connect to 127\\.0\\.0\\.1:${githubPort}`));
    expect(retry.reason).toMatch(/ECONNREFUSED/);

    await githubAnswers();
  });
});
