import { Gauge, type Registry } from 'prom-client';
import type { EventOutbox } from '../events/event-outbox.js';
import { isLiveClaim } from '../read-model/live-claims.js';
import type { IndexedEntry, Store } from '../store/store.js';
import { answers } from './answers.js';

/** What the gauges read when Prometheus scrapes. */
interface ScrapedGaugeDeps {
  readonly store: Store;
  /** Null without `CLAIMS_EVENTS_URL`: the event gauges stay at 0. */
  readonly events: EventOutbox | null;
  readonly now: () => Date;
  /**
   * How long past its deadline an issue counts as overdue: the sweep queues a due issue within
   * one interval, its reconcile finalises it soon after, so anything older says the sweep or
   * the reconciles are stuck.
   */
  readonly overdueAfterMs: number;
}

/** The store's answer to one scrape must come within this, as `/health` asks it. */
const PING_MS = 2000;
/** The open-issue index is read at most this often; scrapes in between get the last count. */
const CLAIMS_READ_EVERY_MS = 30_000;
/** The overdue count stops here: the alert needs "some", the dashboard "many". */
const OVERDUE_CAP = 1000;

/**
 * Gauges asked of the store and the outbox at scrape time: `claims_store_up`,
 * `claims_deadlines_overdue`, `claims_indexed_claims{kind,state}`, `claims_events_pending` and
 * `claims_events_oldest_age_seconds`. Each read that fails leaves its gauge out of that scrape
 * (a NaN, as `claims_queue_depth` does) and never fails the scrape.
 */
export function registerScrapedGauges(registry: Registry, deps: ScrapedGaugeDeps): void {
  const registers = [registry];
  new Gauge({
    name: 'claims_store_up',
    help: 'Whether the store (Redis, or memory when embedded) answered a ping at scrape time (1) or not (0)',
    registers,
    async collect() {
      this.set((await answers(pinged(deps.store), PING_MS)) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'claims_deadlines_overdue',
    help: 'Issues whose deadline (a claim going stale, a grace ending) passed longer ago than the sweep needs to reach them, up to 1000',
    registers,
    async collect() {
      const before = new Date(deps.now().getTime() - deps.overdueAfterMs);
      const due = await deps.store.dueIssues(before, OVERDUE_CAP).catch(() => null);
      this.set(due === null ? Number.NaN : due.length);
    },
  });
  const claims = claimCounts(deps);
  new Gauge({
    name: 'claims_indexed_claims',
    help: 'Claims on open issues as the open-issue index holds them, by kind (agent, person, hosted) and state (its stage when live, else stale)',
    labelNames: ['kind', 'state'],
    registers,
    async collect() {
      const counts = await claims();
      this.reset();
      if (counts === null) return;
      for (const [labels, n] of counts) {
        const [kind, state] = labels.split('\u0000') as [string, string];
        this.set({ kind, state }, n);
      }
    },
  });
  const backlog = () => deps.events?.backlog().catch(() => null) ?? Promise.resolve(undefined);
  new Gauge({
    name: 'claims_events_pending',
    help: 'Outgoing claim events kept and not yet taken by their receiver (waiting, sending or backing off)',
    registers,
    async collect() {
      const b = await backlog();
      this.set(b === null ? Number.NaN : (b?.pending ?? 0));
    },
  });
  new Gauge({
    name: 'claims_events_oldest_age_seconds',
    help: 'Age of the oldest outgoing claim event not yet taken by its receiver; 0 when none waits',
    registers,
    async collect() {
      const b = await backlog();
      if (b === null) return this.set(Number.NaN);
      const oldest = b?.oldestAt ?? null;
      this.set(oldest === null ? 0 : Math.max(0, deps.now().getTime() - oldest) / 1000);
    },
  });
}

async function pinged(store: Store): Promise<void> {
  if (!(await store.ping())) throw new Error('the store did not answer');
}

/** Counts of the index's claims by `kind\0state`, read at most every {@link CLAIMS_READ_EVERY_MS}. */
function claimCounts(deps: ScrapedGaugeDeps): () => Promise<Map<string, number> | null> {
  let last: { at: number; counts: Map<string, number> } | null = null;
  return async () => {
    const at = deps.now().getTime();
    if (last && at - last.at < CLAIMS_READ_EVERY_MS) return last.counts;
    const entries = await deps.store.openIssues().catch(() => null);
    if (entries === null) return null;
    const now = deps.now();
    last = { at, counts: countClaims(entries, now) };
    return last.counts;
  };
}

function countClaims(entries: readonly IndexedEntry[], now: Date): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { claim } of entries) {
    if (claim === null || claim.stage === 'released') continue;
    const state = isLiveClaim(claim, now) ? claim.stage : 'stale';
    const labels = `${claim.kind ?? 'agent'}\u0000${state}`;
    counts.set(labels, (counts.get(labels) ?? 0) + 1);
  }
  return counts;
}
