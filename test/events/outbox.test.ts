/**
 * Outgoing events are delivered at least once (docs/protocol.md §13): retried with backoff
 * under the same delivery id, in process (embedded) and on Redis. A replica process killed
 * with events pending: test/replicas/events-kill.test.ts.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { BullOutbox } from '../../src/events/bull-outbox.js';
import type { ClaimEvent } from '../../src/events/claim-event.js';
import type { EventOutbox } from '../../src/events/event-outbox.js';
import { MemoryOutbox } from '../../src/events/memory-outbox.js';
import { sendEvent } from '../../src/events/send-event.js';
import { signEvent } from '../../src/events/sign-event.js';
import { waitFor } from '../helpers/app-harness.js';
import { flushPrefix, redisUrl, requireRedis, uniquePrefix } from '../helpers/redis.js';
import { type Receiver, startReceiver } from './receiver.js';

/** The events suites' Redis database. */
const DB = 9;
const SECRET = 'events-secret';
const log = pino({ level: 'silent' });

function claimEvent(id: string): ClaimEvent {
  return {
    id,
    type: 'claim.held',
    at: '2030-01-01T00:00:00Z',
    installation: 7,
    repository: 'acme/widgets',
    issue: 1,
    claim: { commentId: 10, author: 'alice', session: 's-1' },
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(answer?: (attempt: number) => number | null): Promise<Receiver> {
  const started = await startReceiver(answer);
  cleanups.push(() => started.close());
  return started;
}

async function bullOutbox(prefix: string, target: Receiver): Promise<BullOutbox> {
  const outbox = new BullOutbox({
    target: redisUrl(DB),
    prefix,
    send: (event) => sendEvent({ url: target.url, secret: SECRET }, event),
    log,
    firstRetryMs: 50,
    maxRetryMs: 200,
  });
  cleanups.push(() => outbox.close());
  return outbox;
}

async function redisPrefix(): Promise<string> {
  const redis = await requireRedis(DB);
  const prefix = uniquePrefix('cw-events');
  cleanups.push(async () => {
    await flushPrefix(redis, `${prefix}:`);
    await redis.quit();
  });
  return prefix;
}

describe.each([
  [
    'in process',
    async (target: Receiver): Promise<EventOutbox> => {
      const outbox = new MemoryOutbox({
        send: (event) => sendEvent({ url: target.url, secret: SECRET }, event),
        log,
        firstRetryMs: 50,
        maxRetryMs: 200,
      });
      cleanups.push(() => outbox.close());
      return outbox;
    },
  ],
  ['on Redis', async (target: Receiver) => bullOutbox(await redisPrefix(), target)],
])('the event outbox %s', (_name, makeOutbox) => {
  it('a receiver that fails twice then succeeds gets the same delivery id three times and nothing else', async () => {
    const target = await receiver((attempt) => (attempt <= 2 ? 503 : 200));
    const outbox = await makeOutbox(target);
    await outbox.publish([claimEvent('e-1')]);
    await waitFor(() => target.received.length === 3, 'three attempts');
    await outbox.idle();
    expect(target.received.map((r) => [r.headers['x-claims-delivery'], r.status])).toEqual([
      ['e-1', 503],
      ['e-1', 503],
      ['e-1', 200],
    ]);
    // The same body, signed, every time.
    for (const { headers, body } of target.received) {
      expect(JSON.parse(body)).toEqual(claimEvent('e-1'));
      expect(headers['x-claims-event']).toBe('claim.held');
      expect(headers['x-claims-signature-256']).toBe(signEvent(SECRET, body));
    }
  });

  it('an event published twice is delivered once', async () => {
    const target = await receiver();
    const outbox = await makeOutbox(target);
    await outbox.publish([claimEvent('e-1'), claimEvent('e-1')]);
    await outbox.idle();
    await outbox.publish([claimEvent('e-1')]);
    await outbox.idle();
    expect(target.received.map((r) => r.headers['x-claims-delivery'])).toEqual(['e-1']);
  });
});
