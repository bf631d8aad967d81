/**
 * docs/protocol.md §12 across a restart behind a balancer: a delivery missed while the app was
 * down is redelivered to the new process, not lost again. GitHub delivers to one URL, a switch
 * that turns to the new process only some time after its `/health` says 200 (a readiness
 * probe's lag); GitHub never retries a redelivery that failed. The real app (embedded) on the
 * fake GitHub.
 */
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type MainOptions, main } from '../../src/app/main.js';
import { claimComment, harnessFor, IN_PROGRESS } from '../e2e/e2e-helpers.js';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { freePort, type Harness, REPO, WEBHOOK_SECRET, waitFor } from '../helpers/app-harness.js';

/** A balancer with one upstream at a time: 503 while it has none. */
interface Switch {
  readonly url: string;
  /** Where webhooks go from now on (undefined: nowhere, 503). */
  turnTo(upstream: string | undefined): void;
  close(): Promise<void>;
}

async function startSwitch(): Promise<Switch> {
  let upstream: string | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const to = upstream;
      if (to === undefined) return res.writeHead(503).end();
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k.startsWith('x-') || k === 'content-type'),
      ) as Record<string, string>;
      try {
        const answer = await fetch(to, { method: 'POST', headers, body: Buffer.concat(chunks) });
        res.writeHead(answer.status).end(await answer.text());
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/api/github/webhooks`,
    turnTo(to) {
      upstream = to;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Whether the app answers `/health` with 200 (ready). */
async function ready(appUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${appUrl}/health`)).status === 200;
  } catch {
    return false;
  }
}

function redeliveries(fake: FakeGitHub) {
  return fake.hookAttempts.filter((a) => a.redelivery);
}

/**
 * Alice holds an issue; the app goes down, her claim comment is deleted meanwhile (only a
 * redelivery can tell: the resync cannot see a deleted comment), and GitHub's delivery of it
 * fails at the switch, which has no upstream.
 */
async function missedWhileDown(harness: Harness, lane: Switch): Promise<number> {
  const { fake } = harness;
  const held = fake.createIssue(REPO);
  const holder = fake.addComment(REPO, held, { author: 'alice', body: claimComment('s-1') });
  await harness.settle();
  expect(fake.issue(REPO, held)).toMatchObject({ labels: [IN_PROGRESS], assignees: ['alice'] });
  await harness.stopApp();
  fake.setWebhookTarget({ url: lane.url, secret: WEBHOOK_SECRET });
  fake.deleteComment(holder.id);
  await fake.settled();
  expect(fake.hookAttempts.at(-1)).toMatchObject({ event: 'issue_comment', statusCode: 503 });
  return held;
}

/** Starts the app again (same port and settings, plus `env`); stopped when the test ends. */
async function restart(
  harness: Harness,
  onFinished: (fn: () => Promise<void>) => void,
  env: Record<string, string>,
  options: MainOptions = {},
): Promise<void> {
  const app = await main({ ...harness.env, ...env }, options);
  onFinished(() => app.stop());
}

describe('a restart behind a switch that lags readiness', () => {
  it('the first redeliveries wait CLAIMS_REDELIVER_DELAY past readiness, and reach the new process', async ({
    onTestFinished,
  }) => {
    const lane = await startSwitch();
    onTestFinished(() => lane.close());
    const harness = await harnessFor(onTestFinished, { fake: { log: () => {} } });
    const held = await missedWhileDown(harness, lane);

    // The probe sees /health 200, and the switch turns a second later.
    await restart(harness, onTestFinished, { CLAIMS_REDELIVER_DELAY: '4s' });
    const probe = (async () => {
      while (!(await ready(harness.appUrl))) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 1000));
      lane.turnTo(harness.webhookUrl);
    })();
    await probe;
    await waitFor(
      () => harness.fake.issue(REPO, held).assignees.length === 0,
      'the deleted holder freed by the redelivery',
      { timeoutMs: 20_000 },
    );

    expect(redeliveries(harness.fake).map((a) => a.statusCode)).toEqual([200]);
    expect(harness.fake.issue(REPO, held)).toMatchObject({ labels: [], assignees: [] });
  });

  it('a redelivery that failed is asked for again soon after, not a whole interval later', async ({
    onTestFinished,
  }) => {
    const lane = await startSwitch();
    onTestFinished(() => lane.close());
    const harness = await harnessFor(onTestFinished, { fake: { log: () => {} } });
    const held = await missedWhileDown(harness, lane);

    // No margin: the first redelivery reaches the switch before it turns, and fails.
    await restart(
      harness,
      onTestFinished,
      { CLAIMS_REDELIVER_DELAY: '0s' },
      { redeliveryRechecksMs: [200, 400, 800] },
    );
    await waitFor(
      () => redeliveries(harness.fake).some((a) => a.statusCode === 503),
      'the first redelivery failing at the switch',
    );
    lane.turnTo(harness.webhookUrl);
    await waitFor(
      () => harness.fake.issue(REPO, held).assignees.length === 0,
      'the deleted holder freed by the second redelivery',
      { timeoutMs: 20_000 },
    );

    expect(redeliveries(harness.fake).map((a) => a.statusCode)).toEqual([503, 200]);
    expect(harness.fake.issue(REPO, held)).toMatchObject({ labels: [], assignees: [] });
  });
});
