import { Counter, type Registry } from 'prom-client';
import type { DropReason, OutboxObserver } from './event-outbox.js';

/**
 * The outgoing events' metrics on the app's registry (docs/protocol.md §13):
 * `claims_event_attempts_total{result}` (`delivered`: a 2xx; `failed`: any other answer, a
 * redirect included, or none in time) and `claims_events_dropped_total{reason}` (`full`: past
 * `CLAIMS_EVENTS_MAX_PENDING`; `expired`: its 24 h were up; `stopped`: the embedded app
 * stopped with it pending). Each drop is also logged with the event's id and type.
 */
export function eventMetrics(registry: Registry): OutboxObserver {
  const attempts = new Counter({
    name: 'claims_event_attempts_total',
    help: 'Attempts to send an outgoing claim event, by result (delivered: the receiver answered 2xx)',
    labelNames: ['result'],
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'claims_events_dropped_total',
    help: 'Outgoing claim events given up before their receiver took them, by reason (full, expired, stopped)',
    labelNames: ['reason'],
    registers: [registry],
  });
  // Every result and reason from the start, at 0: a rate over them is 0, not missing, until
  // the first failure or drop (the dashboard and alerts read them).
  for (const result of ['delivered', 'failed']) attempts.inc({ result }, 0);
  for (const reason of ['full', 'expired', 'stopped']) dropped.inc({ reason }, 0);
  return {
    attempted: (result: 'delivered' | 'failed') => attempts.inc({ result }),
    dropped: (reason: DropReason) => dropped.inc({ reason }),
  };
}
