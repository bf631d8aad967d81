import type { Logger } from 'pino';
import { settingDefault } from '../config/settings.js';
import type { ClaimEvent } from './claim-event.js';
import type {
  DropReason,
  EventOutbox,
  OutboxBacklog,
  OutboxObserver,
  OutboxRetryOptions,
} from './event-outbox.js';
import { EVENT_RETRY_WINDOW_MS, nextEventAttemptIn } from './retry-schedule.js';

/** How many delivered event ids are remembered, so a change derived again is not resent. */
const REMEMBERED_IDS = 10_000;

/** Options of {@link MemoryOutbox}. */
interface MemoryOutboxOptions extends OutboxRetryOptions {
  /** Sends one event; throws when the receiver did not take it; `signal` aborts it. */
  readonly send: (event: ClaimEvent, signal: AbortSignal) => Promise<void>;
  readonly log: Logger;
  /** Events sent at once: `CLAIMS_EVENTS_CONCURRENCY` (its default when absent). */
  readonly concurrency?: number;
  /** Events kept at most, sending or waiting: `CLAIMS_EVENTS_MAX_PENDING` (its default when absent). */
  readonly maxPending?: number;
  /** Told of each attempt and each drop (the metrics). */
  readonly observer?: OutboxObserver;
  /** The clock of the retry window; tests pass their own. */
  readonly now?: () => number;
}

interface Pending {
  readonly event: ClaimEvent;
  readonly firstAttemptAt: number;
  retries: number;
  timer?: NodeJS.Timeout;
}

/** The static message of each way an event is dropped (the metadata names the event). */
const DROPPED: Readonly<Record<DropReason, string>> = {
  full: 'claim event dropped: too many events pending for the receiver (CLAIMS_EVENTS_MAX_PENDING)',
  expired: 'claim event given up after its retry window',
  stopped: 'claim event dropped: the app stopped before the receiver took it',
};

/**
 * The embedded outbox: events retried with backoff in this process (docs/protocol.md §7:
 * one replica, nothing shared). A restart loses the events still pending; Redis mode keeps
 * them (BullOutbox).
 *
 * Bounded, as a receiver that takes connections and never answers must not take the app with
 * it (unbounded, 10,000 events once made 7,202 sockets and stalled `/health`): at most
 * `concurrency` events are being sent at once, the rest wait their turn in order; at most
 * `maxPending` are kept, sending, waiting or backing off, and an event past that is dropped,
 * logged with its id and type and counted (`claims_events_dropped_total{reason="full"}`).
 * The events already kept are the ones kept: they are the older changes a receiver that
 * comes back needs first, and dropping the newest keeps what is sent in the order it happened.
 */
export class MemoryOutbox implements EventOutbox {
  private readonly pending = new Map<string, Pending>();
  /** Due to be sent, oldest first; the rest of `pending` is being sent or backing off. */
  private readonly due: Pending[] = [];
  private readonly sending = new Set<Promise<void>>();
  private readonly delivered = new Set<string>();
  private readonly stop = new AbortController();
  private readonly concurrency: number;
  private readonly maxPending: number;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: MemoryOutboxOptions) {
    this.concurrency = Math.max(
      1,
      options.concurrency ?? settingDefault('CLAIMS_EVENTS_CONCURRENCY'),
    );
    this.maxPending = Math.max(
      1,
      options.maxPending ?? settingDefault('CLAIMS_EVENTS_MAX_PENDING'),
    );
    this.now = options.now ?? Date.now;
  }

  async publish(events: readonly ClaimEvent[]): Promise<void> {
    if (this.closed) throw new Error('the event outbox is closed; the events were not kept');
    for (const event of events) {
      if (this.pending.has(event.id) || this.delivered.has(event.id)) continue;
      if (this.pending.size >= this.maxPending) {
        this.drop(event, 'full', { pending: this.pending.size, maxPending: this.maxPending });
        continue;
      }
      const entry: Pending = { event, firstAttemptAt: this.now(), retries: 0 };
      this.pending.set(event.id, entry);
      this.due.push(entry);
    }
    this.pump();
  }

  async backlog(): Promise<OutboxBacklog> {
    let oldestAt: number | null = null;
    for (const { firstAttemptAt } of this.pending.values())
      if (oldestAt === null || firstAttemptAt < oldestAt) oldestAt = firstAttemptAt;
    return { pending: this.pending.size, oldestAt };
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.pending.values()) clearTimeout(entry.timer);
    // A receiver that never answers must not hold the shutdown for its 10 s.
    this.stop.abort();
    await Promise.allSettled([...this.sending]);
    for (const { event } of this.pending.values()) this.drop(event, 'stopped', {}, 'warn');
    this.pending.clear();
    this.due.length = 0;
  }

  /** Starts sending due events while fewer than `concurrency` are being sent. */
  private pump(): void {
    while (!this.closed && this.sending.size < this.concurrency) {
      const entry = this.due.shift();
      if (!entry) return;
      const sending = this.attempt(entry).finally(() => {
        this.sending.delete(sending);
        this.pump();
      });
      this.sending.add(sending);
    }
  }

  private async attempt(entry: Pending): Promise<void> {
    const { event } = entry;
    // A retry that waited its turn behind others past the window is not sent late.
    const windowMs = this.options.windowMs ?? EVENT_RETRY_WINDOW_MS;
    if (entry.retries > 0 && this.now() - entry.firstAttemptAt > windowMs) {
      this.pending.delete(event.id);
      this.drop(event, 'expired', { retries: entry.retries });
      return;
    }
    try {
      await this.options.send(event, this.stop.signal);
    } catch (err) {
      if (this.closed) return;
      this.options.observer?.attempted('failed');
      entry.retries += 1;
      const wait = nextEventAttemptIn(
        entry.retries,
        event.id,
        entry.firstAttemptAt,
        this.now(),
        this.options,
      );
      const fields = { err, retries: entry.retries };
      if (wait === null) {
        this.pending.delete(event.id);
        this.drop(event, 'expired', fields);
        return;
      }
      this.options.log.warn(
        { event: event.id, type: event.type, ...fields, retryInMs: wait },
        'claim event not delivered: will retry',
      );
      entry.timer = setTimeout(() => {
        this.due.push(entry);
        this.pump();
      }, wait);
      return;
    }
    this.options.observer?.attempted('delivered');
    this.pending.delete(event.id);
    this.remember(event.id);
  }

  /** Gives an event up, never silently: a log line with its id and type, and the metric. */
  private drop(
    event: ClaimEvent,
    reason: DropReason,
    fields: Record<string, unknown>,
    level: 'warn' | 'error' = 'error',
  ): void {
    this.options.observer?.dropped(reason);
    this.options.log[level](
      { event: event.id, type: event.type, reason, ...fields },
      DROPPED[reason],
    );
  }

  private remember(id: string): void {
    this.delivered.add(id);
    if (this.delivered.size > REMEMBERED_IDS) {
      const oldest = this.delivered.values().next().value;
      if (oldest !== undefined) this.delivered.delete(oldest);
    }
  }
}
