import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import {
  type Answer,
  genuineDelivery,
  pacedChunks,
  rawRequest,
  slowSender,
  unsignedHeaders,
  writeRepeated,
} from './door-clients.js';

// Issue 20 #3: GitHub gives a delivery 10 s. A body that has not arrived by the door's deadline
// is cut off, the in-flight budget is charged by bytes received, and slow or unsigned senders
// never push genuine deliveries out. The deadline is injected short here; the senders' pace is
// chosen so that they would still be sending long after it.
const MB = 1024 * 1024;
const DEADLINE_MS = 1500;
const BYTE_EVERY_MS = 100;
/** Slow senders send this many bytes then end: sixty 100 ms ticks, well past the deadline. */
const SLOW_BYTES = 60;

let harness: Harness;
let port: number;

beforeAll(async () => {
  harness = await startHarness({
    env: { LOG_LEVEL: 'info' },
    captureLogs: true,
    main: { webhookDoor: { bodyDeadlineMs: DEADLINE_MS } },
  });
  port = Number(new URL(harness.appUrl).port);
});
afterAll(async () => {
  await harness.close();
});

describe('slow and unsigned senders at the webhook door', () => {
  it('a body still trickling in at the deadline is cut off with 408', async () => {
    const sender = slowSender(port, BYTE_EVERY_MS, SLOW_BYTES);

    expect(await sender.answer).toBe(408);
    expect(
      harness.logLines.some((line) => line.includes('webhook body not received in time')),
    ).toBe(true);
  });

  it('genuine deliveries sent while four slow senders and ten large unsigned bodies are in flight are all answered 2xx', async () => {
    const slow = Array.from({ length: 4 }, () => slowSender(port, BYTE_EVERY_MS, SLOW_BYTES));
    // Ten 20 MB unsigned bodies, 1 MB a tick: they take the large-body budget and hold it.
    const piece = Buffer.alloc(MB, 0x61);
    const large = Array.from({ length: 10 }, () => pacedChunks(port, piece, 20, BYTE_EVERY_MS));
    let slowDone = 0;
    for (const sender of slow) void sender.answer.then(() => slowDone++);

    const genuine: Answer[] = [];
    // One genuine delivery a tick for as long as any slow sender is still in flight.
    while (slowDone < slow.length && genuine.length < 60) {
      genuine.push(await genuineDelivery(port, WEBHOOK_SECRET));
      await new Promise((resolve) => setTimeout(resolve, BYTE_EVERY_MS / 2));
    }
    const slowAnswers = await Promise.all(slow.map((sender) => sender.answer));
    const largeAnswers = await Promise.all(large.map((sender) => sender.answer));
    for (const sender of [...slow, ...large]) sender.stop();

    expect(genuine.length).toBeGreaterThan(0);
    expect(genuine.filter((answer) => answer !== 200)).toEqual([]);
    expect(slowAnswers).toEqual([408, 408, 408, 408]);
    for (const answer of largeAnswers) expect([401, 408, 503, 'closed']).toContain(answer);
  });

  it('an unsigned body is refused 401 once it has arrived', async () => {
    const request = rawRequest(port, '/api/github/webhooks', {
      ...unsignedHeaders(),
      'content-length': String(2 * MB),
    });
    await writeRepeated(request.socket, Buffer.alloc(MB, 0x20), 2);

    expect(await request.answer).toBe(401);
    expect(harness.logLines.some((line) => line.includes('webhook signature does not match'))).toBe(
      true,
    );
  });
});
