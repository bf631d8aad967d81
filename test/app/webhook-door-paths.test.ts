import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../fake-github/webhooks.js';
import { type Harness, startHarness, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import { rawRequest, unsignedHeaders, writeRepeated } from './door-clients.js';

// Issue 20 #2: @octokit/webhooks resolves the request target as a URL (dot segments, `%2e`,
// `\`, `#`, absolute form) before it compares it with the webhook path, so the door must
// decide on the very same resolution: every request the middleware would read passes the door.
const MB = 1024 * 1024;
const PIECE = Buffer.alloc(MB, 0x61);

let harness: Harness;
let port: number;

beforeAll(async () => {
  harness = await startHarness();
  port = Number(new URL(harness.appUrl).port);
});
afterAll(async () => {
  await harness.close();
});

/** An unsigned 26 MB body declared up front, sent to `target` until the app answers. */
async function oversized(target: string): Promise<number | 'closed'> {
  const request = rawRequest(port, target, {
    ...unsignedHeaders(),
    'content-length': String(26 * MB),
  });
  void writeRepeated(request.socket, PIECE, 26);
  return request.answer;
}

// Each resolves to /api/github/webhooks the way the middleware resolves it.
const WEBHOOK_TARGETS = [
  '/api/github/./webhooks',
  '/api/github/%2e/webhooks',
  '/api/github/%2E/webhooks',
  '/api/github/x/../webhooks',
  '/api/github/x/%2e%2E/webhooks',
  '/api/github\\webhooks',
  '/api\\github\\webhooks',
  '/api/github/webhooks#x',
  '/api/github/./webhooks?x=1',
  '/api/github/webhooks//',
  '/api/github/webhooks?x=1',
  '/./api/github/webhooks',
  'http://example.test/api/github/webhooks',
];

// Each resolves to another path: none may be read as a webhook.
const OTHER_TARGETS = ['/api//github/webhooks', '//api/github/webhooks', '/api/github%2Fwebhooks'];

describe('the webhook door, whatever the spelling of its path', () => {
  for (const target of WEBHOOK_TARGETS) {
    it(`POST ${target} with a 26 MB body is answered 413 before the body is read`, async () => {
      expect(await oversized(target)).toBe(413);
    });
  }

  for (const target of OTHER_TARGETS) {
    it(`POST ${target} is not a webhook: 404 without reading the body`, async () => {
      expect(await oversized(target)).toBe(404);
    });
  }

  it('a signed delivery whose x-github-delivery header is empty is refused 400', async () => {
    const body = JSON.stringify({ zen: 'Avoid administrative distraction.', hook_id: 1 });
    const request = rawRequest(port, '/api/github/webhooks', {
      'content-type': 'application/json',
      'x-github-event': 'ping',
      'x-github-delivery': '',
      'x-hub-signature-256': signWebhook(WEBHOOK_SECRET, body),
      'content-length': String(Buffer.byteLength(body)),
    });
    request.socket.write(body);

    expect(await request.answer).toBe(400);
  });

  it('a GET on a spelling of the webhook path is 404 and the app still takes deliveries', async () => {
    const request = rawRequest(port, '/api/github/%2e/webhooks', {}, 'GET');
    request.socket.end();
    expect(await request.answer).toBe(404);
  });
});
