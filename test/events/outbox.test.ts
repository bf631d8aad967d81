/**
 * Outgoing events are delivered at least once (docs/protocol.md §13): retried with backoff
 * under the same delivery id, in process (embedded) and on Redis, where a replica that dies
 * with events pending loses none.
 */
import type { Redis } from 'ioredis';
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

function claimEvent(id: string, type: ClaimEvent['type'] = 'claim.held'): ClaimEvent {
  return {
    id,
    type,
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
    url: redisUrl(DB),
    prefix,
    send: (event) => sendEvent({ url: target.url, secret: SECRET }, event),
    log,
    firstRetryMs: 50,
    maxRetryMs: 200,
    lockDurationMs: 1000,
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

describe('the event outbox on Redis, across replicas', () => {
  it('a replica killed with events pending loses none: another replica delivers them', async () => {
    const prefix = await redisPrefix();
    // e-1 waits for a retry; e-2 and e-3 are in flight when the replica dies.
    const down = await receiver((attempt) => (attempt === 1 ? 503 : null));
    const first = await bullOutbox(prefix, down);
    await first.publish([claimEvent('e-1')]);
    await waitFor(() => down.received.length >= 1, 'the first attempt of e-1');
    await first.publish([claimEvent('e-2', 'claim.lost'), claimEvent('e-3')]);
    await waitFor(() => down.received.length >= 3, 'e-2 and e-3 in flight');
    kill(first);
    await down.close();

    const up = await receiver();
    const second = await bullOutbox(prefix, up);
    await waitFor(() => up.received.length >= 3, 'the pending events', { timeoutMs: 20_000 });
    await second.idle();
    expect(up.received.map((r) => r.headers['x-claims-delivery']).sort()).toEqual([
      'e-1',
      'e-2',
      'e-3',
    ]);
  });
});

/** Drops an outbox's Redis connections at once, as a replica killed with kill -9 would. */
function kill(outbox: BullOutbox): void {
  const inside = outbox as unknown as { connection: Redis; workerConnection: Redis };
  inside.workerConnection.disconnect();
  inside.connection.disconnect();
}
