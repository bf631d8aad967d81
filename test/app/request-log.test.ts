/**
 * Issue 20, defect 12: what the real app writes to its log while it answers requests. At
 * info, one short line per request (method, path without its query, status, time); `/health`
 * probes at debug; never a header, a cookie, a query string, an OAuth code or state, or a
 * token, at any level.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, waitFor } from '../helpers/app-harness.js';

const CODE = 'oauthcode0123456789abcdef';
const STATE = 'oauthstate0123456789abcdef';
const QUERY_SECRET = 'querytoken0123456789abcdef';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function app(logLevel: string): Promise<Harness> {
  const harness = await startHarness({
    captureLogs: true,
    env: {
      LOG_LEVEL: logLevel,
      GITHUB_CLIENT_ID: 'Iv1.0123456789abcdef',
      GITHUB_CLIENT_SECRET: 'board-client-secret',
    },
  });
  harnesses.push(harness);
  return harness;
}

/** The requests an operator's app sees in a day: probes, a board callback, the API, a query. */
async function traffic(harness: Harness): Promise<string> {
  const token = harness.fake.tokenFor('alice');
  const answers = await Promise.all([
    fetch(`${harness.appUrl}/health`, { headers: { 'user-agent': 'kube-probe/1.29' } }),
    fetch(`${harness.appUrl}/claims/callback?code=${CODE}&state=${STATE}`, {
      redirect: 'manual',
      headers: { cookie: `claims_state=${STATE}; other=cookie-value-123` },
    }),
    fetch(`${harness.appUrl}/api/claims/v1/repos/acme/widgets/issues/1/claim`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    fetch(`${harness.appUrl}/api/claims/v1/queue?access_token=${QUERY_SECRET}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  ]);
  for (const answer of answers) await answer.body?.cancel();
  return token;
}

/** Waits until every request of `traffic` (and /health when `health`) has its line. */
async function logged(harness: Harness, before: number, health: boolean): Promise<void> {
  const paths = ['/claims/callback', '/issues/1/claim', '/api/claims/v1/queue'];
  if (health) paths.push('/health');
  await waitFor(
    () => paths.every((p) => harness.logLines.slice(before).some((l) => l.includes(p))),
    'a line for every request',
  );
}

function requestLines(harness: Harness): Array<Record<string, unknown>> {
  return harness.logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => typeof line.path === 'string' && typeof line.status === 'number');
}

describe('request logging', () => {
  it('at info: one short line per request, no query, header, cookie, code, state or token, and no /health', async () => {
    const harness = await app('info');
    const before = harness.logLines.length;

    const token = await traffic(harness);
    await logged(harness, before, false);

    const written = harness.logLines.slice(before).join('\n');
    for (const secret of [CODE, STATE, QUERY_SECRET, token, 'cookie-value-123', 'kube-probe']) {
      expect(written).not.toContain(secret);
    }
    expect(written).not.toMatch(/headers|user-agent|"req"|"res"|\?/i);
    const lines = requestLines(harness);
    expect(lines.map((l) => `${l.method} ${l.path}`).sort()).toEqual([
      'GET /api/claims/v1/queue',
      'GET /api/claims/v1/repos/acme/widgets/issues/1/claim',
      'GET /claims/callback',
    ]);
    for (const line of lines) {
      expect(line.level).toBe(30);
      expect(typeof line.ms).toBe('number');
      expect(JSON.stringify(line).length).toBeLessThan(300);
    }
  });

  it('at debug: /health is logged, still without headers, code, state or token', async () => {
    const harness = await app('debug');
    const before = harness.logLines.length;

    const token = await traffic(harness);
    await logged(harness, before, true);

    const written = harness.logLines.slice(before).join('\n');
    for (const secret of [CODE, STATE, QUERY_SECRET, token, 'cookie-value-123']) {
      expect(written).not.toContain(secret);
    }
    expect(written).not.toMatch(/authorization|"cookie"|"headers"/i);
    const health = requestLines(harness).find((l) => l.path === '/health');
    expect(health).toMatchObject({ level: 20, method: 'GET', status: 200 });
  });
});
