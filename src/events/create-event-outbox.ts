import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import { BullOutbox } from './bull-outbox.js';
import type { EventOutbox, OutboxRetryOptions } from './event-outbox.js';
import { MemoryOutbox } from './memory-outbox.js';
import { sendEvent } from './send-event.js';

/**
 * The outbox of outgoing events for the operator's settings (docs/protocol.md §13): none
 * without `CLAIMS_EVENTS_URL`; on Redis when `CLAIMS_REDIS_URL` is set (a replica restart
 * loses none: another replica sends a killed one's events, their lock `CLAIMS_QUEUE_LOCK`
 * as for reconciles but at most 10 s), else in the process.
 */
export function createEventOutbox(
  settings: Partial<
    Pick<Settings, 'eventsUrl' | 'eventsSecret' | 'redisUrl' | 'redisPrefix' | 'queueLockMs'>
  >,
  log: Logger,
  retry: OutboxRetryOptions = {},
): EventOutbox | null {
  const { eventsUrl: url, eventsSecret: secret } = settings;
  if (url === undefined) return null;
  // readSettings refuses a URL without a secret; this is for callers that skip it.
  if (secret === undefined)
    throw new Error('CLAIMS_EVENTS_SECRET is required with CLAIMS_EVENTS_URL');
  const send = (event: Parameters<typeof sendEvent>[1]) => sendEvent({ url, secret }, event);
  const logger = log.child({ name: 'events' });
  if (settings.redisUrl) {
    return new BullOutbox({
      url: settings.redisUrl,
      prefix: settings.redisPrefix ?? 'claims',
      lockDurationMs: settings.queueLockMs,
      send,
      log: logger,
      ...retry,
    });
  }
  return new MemoryOutbox({ send, log: logger, ...retry });
}
