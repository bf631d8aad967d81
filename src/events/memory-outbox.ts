import type { Logger } from 'pino';
import type { ClaimEvent } from './claim-event.js';
import type { EventOutbox, OutboxRetryOptions } from './event-outbox.js';
import { nextEventAttemptIn } from './retry-schedule.js';

/** How many delivered event ids are remembered, so a change derived again is not resent. */
const REMEMBERED_IDS = 10_000;

/** Options of {@link MemoryOutbox}. */
export interface MemoryOutboxOptions extends OutboxRetryOptions {
  /** Sends one event; throws when the receiver did not take it. */
  readonly send: (event: ClaimEvent) => Promise<void>;
  readonly log: Logger;
}

interface Pending {
  readonly event: ClaimEvent;
  readonly firstAttemptAt: number;
  retries: number;
  timer?: NodeJS.Timeout;
  sending?: Promise<void>;
}

/**
 * The embedded outbox: events retried with backoff in this process (docs/protocol.md §7:
 * one replica, nothing shared). A restart loses the events still pending; Redis mode keeps
 * them (BullOutbox).
 */
export class MemoryOutbox implements EventOutbox {
  private readonly pending = new Map<string, Pending>();
  private readonly delivered = new Set<string>();
  private closed = false;

  constructor(private readonly options: MemoryOutboxOptions) {}

  async publish(events: readonly ClaimEvent[]): Promise<void> {
    if (this.closed) throw new Error('the event outbox is closed; the events were not kept');
    for (const event of events) {
      if (this.pending.has(event.id) || this.delivered.has(event.id)) continue;
      const entry: Pending = { event, firstAttemptAt: Date.now(), retries: 0 };
      this.pending.set(event.id, entry);
      this.attempt(entry);
    }
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.pending.values()) clearTimeout(entry.timer);
    await Promise.allSettled([...this.pending.values()].map((entry) => entry.sending));
    if (this.pending.size > 0) {
      this.options.log.warn({ pending: this.pending.size }, 'claim events not delivered: stopped');
    }
    this.pending.clear();
  }

  private attempt(entry: Pending): void {
    entry.sending = this.options.send(entry.event).then(
      () => {
        this.pending.delete(entry.event.id);
        this.remember(entry.event.id);
      },
      (err: unknown) => {
        if (this.closed) return;
        entry.retries += 1;
        const wait = nextEventAttemptIn(
          entry.retries,
          entry.firstAttemptAt,
          Date.now(),
          this.options,
        );
        const fields = {
          event: entry.event.id,
          type: entry.event.type,
          err,
          retries: entry.retries,
        };
        if (wait === null) {
          this.pending.delete(entry.event.id);
          this.options.log.error(fields, 'claim event given up after its retry window');
          return;
        }
        this.options.log.warn(
          { ...fields, retryInMs: wait },
          'claim event not delivered: will retry',
        );
        entry.timer = setTimeout(() => this.attempt(entry), wait);
      },
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
