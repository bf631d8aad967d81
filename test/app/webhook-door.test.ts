import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../fake-github/webhooks.js';
import { type Harness, startHarness, WEBHOOK_SECRET } from '../helpers/app-harness.js';

// Issue 10 #2: GitHub caps payloads at 25 MB; the app refuses larger bodies before reading
// them and never logs the payload of a delivery it refuses.
const MB = 1024 * 1024;
const CANARY = 'payload-canary-7f3a';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ env: { LOG_LEVEL: 'debug' }, captureLogs: true });
});
afterAll(async () => {
  await harness.close();
});

/** Posts `body` to the webhook path with GitHub's headers; the status, or the error code. */
function post(
  body: Buffer | string,
  options: { signature?: string; event?: string; chunked?: boolean } = {},
): Promise<number | string> {
  const url = new URL(harness.webhookUrl);
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': options.event ?? 'issue_comment',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': options.signature ?? signWebhook(WEBHOOK_SECRET, String(body)),
          ...(options.chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    // The app closes the connection after a refusal: what is still being sent then fails.
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    if (options.chunked) {
      const chunk = Buffer.alloc(MB, 0x20);
      const total = Buffer.byteLength(body);
      for (let sent = 0; sent < total; sent += MB) req.write(chunk);
      req.end();
    } else {
      req.end(body);
    }
  });
}

/** A JSON body of `bytes` bytes whose text holds CANARY. */
function bigBody(bytes: number): Buffer {
  const head = Buffer.from(`{"action":"created","note":"${CANARY}","pad":"`);
  const tail = Buffer.from('"}');
  const body = Buffer.alloc(bytes, 0x61);
  head.copy(body, 0);
  tail.copy(body, bytes - tail.length);
  return body;
}

describe('the webhook door', () => {
  it('a 26 MB body with its content-length is answered 413 and its payload is not logged', async () => {
    const status = await post(bigBody(26 * MB), { signature: 'sha256=0000' });

    expect(status).toBe(413);
    expect(harness.logLines.join('\n')).not.toContain(CANARY);
    expect(harness.logLines.some((line) => line.includes('webhook body over 25 MB refused'))).toBe(
      true,
    );
  });

  it('a 26 MB body sent without a content-length is cut off at 25 MB with 413', async () => {
    const status = await post(bigBody(26 * MB), { signature: 'sha256=0000', chunked: true });

    expect(status).toBe(413);
    expect(harness.logLines.join('\n')).not.toContain(CANARY);
  });

  it('a delivery with a bad signature is answered 401 and its log lines hold no payload', async () => {
    const lines = harness.logLines.length;
    const body = JSON.stringify({ action: 'created', comment: { body: CANARY } });

    const status = await post(body, { signature: signWebhook('not-the-secret', body) });

    expect(status).toBe(401);
    const logged = harness.logLines.slice(lines).join('\n');
    expect(logged).toContain('signature does not match');
    expect(logged).not.toContain(CANARY);
  });

  it('a body under 25 MB still reaches the app (answered as any delivery)', async () => {
    const body = JSON.stringify({ action: 'created', zen: 'Keep it logically awesome.' });

    expect(await post(body, { event: 'ping' })).toBe(200);
  });

  it('a signed delivery whose event header is `issue_comment.created` is acknowledged, not a 500', async () => {
    const body = JSON.stringify({ action: 'created', installation: { id: 1 } });

    expect(await post(body, { event: 'issue_comment.created' })).toBe(200);
  });

  it('a signed body that is not JSON is answered 400 and logged without its text', async () => {
    const body = `{"action":"created","note":"${CANARY}"`;

    expect(await post(body)).toBe(400);
    expect(harness.logLines.some((line) => line.includes('webhook body is not JSON: 400'))).toBe(
      true,
    );
    expect(harness.logLines.join('\n')).not.toContain(CANARY);
  });
});
