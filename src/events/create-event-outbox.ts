import type { Logger } from 'pino';
import { type Settings, settingDefault } from '../config/settings.js';
import { keyspace } from '../redis/keyspace.js';
import { BullOutbox } from './bull-outbox.js';
import type { EventOutbox, EventSenderOptions, OutboxObserver } from './event-outbox.js';
import { MemoryOutbox } from './memory-outbox.js';
import { sendEvent } from './send-event.js';

/**
 * The outbox of outgoing events for the operator's settings (docs/protocol.md §13): none
 * without `CLAIMS_EVENTS_URL`; on Redis when Redis is named (`CLAIMS_REDIS_URL`, `_SENTINELS` or `_CLUSTER`) (a replica restart
 * loses none: another replica sends a killed one's events, their lock `CLAIMS_QUEUE_LOCK`
 * as for reconciles but at most 10 s), else in the process. Either way a replica sends at
 * most `CLAIMS_EVENTS_CONCURRENCY` at once; embedded, at most `CLAIMS_EVENTS_MAX_PENDING`
 * wait in memory.
 */
export function createEventOutbox(
  settings: Partial<
    Pick<
      Settings,
      | 'eventsUrl'
      | 'eventsSecret'
      | 'eventsConcurrency'
      | 'eventsMaxPending'
      | 'redis'
      | 'redisPrefix'
      | 'queueLockMs'
    >
  >,
  log: Logger,
  sender: EventSenderOptions = {},
  observer?: OutboxObserver,
): EventOutbox | null {
  const { eventsUrl: url, eventsSecret: secret } = settings;
  if (url === undefined) return null;
  // readSettings refuses a URL without a secret; this is for callers that skip it.
  if (secret === undefined)
    throw new Error('CLAIMS_EVENTS_SECRET is required with CLAIMS_EVENTS_URL');
  const { answerTimeoutMs, ...retry } = sender;
  const send = (event: Parameters<typeof sendEvent>[1], signal?: AbortSignal) =>
    sendEvent({ url, secret }, event, {
      ...(signal ? { signal } : {}),
      ...(answerTimeoutMs !== undefined ? { timeoutMs: answerTimeoutMs } : {}),
    });
  const logger = log.child({ name: 'events' });
  const shared = {
    send,
    log: logger,
    concurrency: settings.eventsConcurrency ?? settingDefault('CLAIMS_EVENTS_CONCURRENCY'),
    ...(observer ? { observer } : {}),
    ...retry,
  };
  if (settings.redis) {
    return new BullOutbox({
      target: settings.redis,
      prefix: keyspace(
        settings.redis,
        settings.redisPrefix ?? settingDefault('CLAIMS_REDIS_PREFIX'),
      ),
      lockDurationMs: settings.queueLockMs,
      ...shared,
    });
  }
  return new MemoryOutbox({
    ...shared,
    maxPending: settings.eventsMaxPending ?? settingDefault('CLAIMS_EVENTS_MAX_PENDING'),
  });
}
