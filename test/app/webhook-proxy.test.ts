/**
 * WEBHOOK_PROXY_URL works as in any Probot app: Probot's server connects to the channel (a
 * smee.io-style event stream, here on loopback) and posts each forwarded webhook to the app,
 * which verifies and handles it like a direct delivery.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { claimComment } from '../e2e/e2e-helpers.js';
import { signWebhook } from '../fake-github/fake-github.js';
import { REPO, startHarness, WEBHOOK_SECRET, waitFor } from '../helpers/app-harness.js';

/** A webhook proxy channel: an event stream that relays what `send` is given, as smee.io does. */
async function startChannel() {
  const listeners = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': ready\n\n');
    listeners.add(res);
    req.on('close', () => listeners.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/claim-warden-channel`,
    connected: () => listeners.size > 0,
    send(data: unknown) {
      for (const res of listeners) res.write(`data: ${JSON.stringify(data)}\n\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of listeners) res.end();
        server.close(() => resolve());
      }),
  };
}

describe('the webhook proxy', () => {
  it('a webhook forwarded through WEBHOOK_PROXY_URL is enforced', async () => {
    const channel = await startChannel();
    const harness = await startHarness({ env: { WEBHOOK_PROXY_URL: channel.url } });
    try {
      const { fake } = harness;
      // GitHub cannot reach this app: everything comes through the channel.
      fake.setWebhookTarget({ capture: true });
      await waitFor(channel.connected, 'the app to connect to the channel');
      const n = fake.createIssue(REPO);
      fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
      const delivery = fake.deliveries.at(-1)!;
      const body = JSON.parse(delivery.body) as unknown;

      channel.send({
        'x-github-event': delivery.event,
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': signWebhook(WEBHOOK_SECRET, JSON.stringify(body)),
        body,
      });

      await waitFor(
        () => fake.issue(REPO, n).assignees.includes('alice'),
        'the claim to be enforced',
      );
      expect(fake.issue(REPO, n)).toMatchObject({
        labels: ['status:in-progress'],
        assignees: ['alice'],
      });
    } finally {
      await harness.close();
      await channel.close();
    }
  });
});
