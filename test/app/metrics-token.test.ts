/**
 * Issue 20, defect 13: `/metrics` behind `CLAIMS_METRICS_TOKEN`. With it set, a scrape needs
 * `Authorization: Bearer <token>`; anyone else gets 401 and no metrics. Without it, the port's
 * reach is the only guard, and production says so in the log.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/app-harness.js';

const TOKEN = 'metrics-token-0123456789abcdef0123456789';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function scrape(harness: Harness, authorization?: string) {
  const response = await fetch(`${harness.appUrl}/metrics`, {
    headers: authorization ? { authorization } : {},
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('/metrics with CLAIMS_METRICS_TOKEN', () => {
  it('answers the right bearer token and refuses a missing or wrong one with 401', async () => {
    const harness = await startHarness({ env: { CLAIMS_METRICS_TOKEN: TOKEN } });
    harnesses.push(harness);

    const ok = await scrape(harness, `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('claims_webhooks_total');
    expect((await scrape(harness, `bearer ${TOKEN}`)).status).toBe(200);

    for (const authorization of [
      undefined,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`,
      TOKEN,
      'Bearer ',
    ]) {
      const refused = await scrape(harness, authorization);
      expect(refused.status, String(authorization)).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(refused.text).not.toContain('claims_webhooks_total');
    }
    // /health stays open: load balancers and orchestrators probe it without a token.
    expect((await fetch(`${harness.appUrl}/health`)).status).toBe(200);
  });

  it('without it, /metrics stays open and production warns at start-up', async () => {
    const harness = await startHarness({
      captureLogs: true,
      env: { NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    });
    harnesses.push(harness);

    expect((await scrape(harness)).status).toBe(200);
    const warning = harness.logLines.find((l) => l.includes('CLAIMS_METRICS_TOKEN'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning!).level).toBe(40);
  });
});
