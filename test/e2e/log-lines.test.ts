/**
 * Every log line is one JSON object with unique keys, over an
 * end-to-end run: a claim race with a finalisation, a push, refused and accepted webhooks,
 * the API and /metrics, and a start-up that cannot reach GitHub (the 503s of the door and
 * the board). JSON.parse keeps the last of two equal keys without a word, so the lines are
 * read with a parser that refuses duplicates.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/app/main.js';
import { startSetup } from '../../src/app/setup.js';
import { signWebhook } from '../fake-github/webhooks.js';
import {
  freePort,
  githubEnv,
  type Harness,
  logSink,
  REPO,
  startHarness,
  WEBHOOK_SECRET,
  waitFor,
} from '../helpers/app-harness.js';
import { parseStrictJson } from '../helpers/strict-json.js';
import { claimComment } from './e2e-helpers.js';

/** Each line as an object; fails naming the first line that is not one clean JSON object. */
function checkLines(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((line) => {
    const parsed = parseStrictJson(line);
    expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), line).toBe(
      true,
    );
    const record = parsed as Record<string, unknown>;
    expect(typeof record.msg === 'string' && record.msg.trim() !== '', line).toBe(true);
    return record;
  });
}

let harness: Harness | undefined;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  await harness?.close();
  harness = undefined;
});

describe('the log of an end-to-end run', () => {
  it('refuses duplicate keys when it reads a line', () => {
    expect(() => parseStrictJson('{"name":"a","name":"b"}')).toThrow(/duplicate key "name"/);
    expect(parseStrictJson('{"a":{"b":[1,"x\\"y"]}}')).toEqual({ a: { b: [1, 'x"y'] } });
  });

  it('every line is one JSON object with unique keys and a message', async () => {
    harness = await startHarness({
      captureLogs: true,
      env: { LOG_LEVEL: 'debug', CLAIMS_METRICS_TOKEN: 'log-lines-metrics-token-0123456789' },
    });
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, {
      author: 'alice',
      body: claimComment('s-1', { at: new Date(Date.now() - 60_000) }),
    });
    await harness.settle();
    fake.addComment(REPO, n, { author: 'bob', body: claimComment('s-2') });
    fake.push(REPO, { branch: 'feat/s-1', pusher: 'alice' });
    await harness.settle();
    // A forged delivery (refused at the door), the API without a token, health and metrics.
    await fetch(harness.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issues',
        'x-github-delivery': 'forged-1',
        'x-hub-signature-256': signWebhook('not-the-secret', '{}'),
      },
      body: '{}',
    });
    await fetch(`${harness.appUrl}/api/claims/v1/repos/${REPO}/issues/${n}/claim`);
    await fetch(`${harness.appUrl}/health`);
    const metrics = await fetch(`${harness.appUrl}/metrics`, {
      headers: { authorization: 'Bearer log-lines-metrics-token-0123456789' },
    });
    const scrape = await metrics.text();

    const records = checkLines(harness.logLines);

    expect(records.some((r) => r.msg === 'claim finalised')).toBe(true);
    expect(scrape).toMatch(/claims_webhooks_total\{event="push",/);
    expect(scrape).not.toMatch(/event="[a-z_]+\."/);
  }, 60_000);

  it('a failed GitHub request is logged as method, path, status and message, not octokit objects', async () => {
    harness = await startHarness({ captureLogs: true, env: { LOG_LEVEL: 'info' } });
    const { fake } = harness;
    const n = fake.createIssue(REPO);
    const labels = `/repos/acme/widgets/issues/${n}/labels`;
    fake.inject({ method: 'POST', path: labels, status: 422 });
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await harness.settle();
    expect(fake.issue(REPO, n).labels).not.toEqual([]);

    const failed = checkLines(harness.logLines).filter(
      (r) => (r.err as { github?: unknown } | undefined)?.github !== undefined,
    );
    expect(failed.length).toBeGreaterThan(0);
    for (const record of failed) {
      const err = record.err as Record<string, unknown>;
      expect(err.github).toMatchObject({ method: 'POST', path: labels, status: 422 });
      expect(typeof (err.github as { message: unknown }).message).toBe('string');
      expect(err).not.toHaveProperty('request');
      expect(err).not.toHaveProperty('response');
      expect(JSON.stringify(record).length).toBeLessThan(3_000);
    }
  }, 60_000);

  it('a start-up that cannot reach GitHub logs clean lines, its 503s without a stack trace', async () => {
    const lines: string[] = [];
    let port = 0;
    const githubPort = await freePort();
    const starting = main(
      { ...githubEnv(`127.0.0.1:${githubPort}`), PORT: '0', LOG_LEVEL: 'debug' },
      {
        logDestination: logSink(lines),
        startup: { firstDelayMs: 20, maxDelayMs: 50 },
        onListening: (p) => {
          port = p;
        },
      },
    );
    await waitFor(() => lines.some((l) => l.includes('GitHub not reachable')), 'a retry');
    const body = '{"action":"opened"}';
    const door = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issues',
        'x-github-delivery': 'early-1',
        'x-hub-signature-256': signWebhook(WEBHOOK_SECRET, body),
      },
      body,
    });
    await fetch(`http://127.0.0.1:${port}/claims`);
    expect(door.status).toBe(503);

    const records = checkLines(lines);

    for (const record of records) expect(JSON.stringify(record)).not.toMatch(/"stack"|\\n\s+at /);
    // The process keeps retrying until stopped: the test ends it with a GitHub it can reach.
    const { startFakeGitHub } = await import('../fake-github/fake-github.js');
    const fake = await startFakeGitHub({ port: githubPort, log: () => {} });
    const running = await starting;
    stops.push(async () => {
      await running.stop();
      await fake.close();
    });
  }, 60_000);

  it('setup mode (no APP_ID) logs one JSON object with unique keys a line too', async () => {
    const lines: string[] = [];
    const port = await freePort();
    const offline = {
      createChannel: async (): Promise<string> => {
        throw new TypeError('fetch failed');
      },
    };
    const setup = await startSetup(
      { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'debug' },
      { logDestination: logSink(lines), SmeeClient: offline },
    );
    stops.push(() => setup.stop());
    await fetch(`http://127.0.0.1:${port}/probot`);
    await fetch(`http://127.0.0.1:${port}/probot/import`);
    await fetch(`http://127.0.0.1:${port}/no-such-page`);
    await waitFor(() => lines.some((l) => l.includes('smee.io')), 'the smee.io line');
    await waitFor(() => lines.some((l) => l.includes('/no-such-page')), 'the request lines');

    const records = checkLines(lines);

    expect(records.some((r) => String(r.msg).startsWith('setup mode'))).toBe(true);
  }, 60_000);
});
