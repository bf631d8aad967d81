import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { createOpsMetrics, type OpsMetrics } from '../telemetry/ops-metrics.js';

/** The app's Prometheus metrics, on a registry of its own (tests create several apps). */
export interface Metrics {
  readonly registry: Registry;
  readonly webhooks: Counter<'event' | 'result'>;
  readonly reconciles: Counter<'outcome'>;
  /** Reconciles that failed on every attempt and were kept due for the sweep. */
  readonly reconcilesKeptDue: Counter;
  readonly finalisations: Counter<'reason'>;
  /** Stale claims' branches read for review (docs/protocol.md §17): `work`, `none`, `failed`. */
  readonly reviewReads: Counter<'result'>;
  /** Writes that observe mode decided and did not send (docs/protocol.md §15). */
  readonly observedWrites: Counter<'kind'>;
  readonly githubCalls: Counter<'method' | 'route' | 'status'>;
  readonly queueDepth: Gauge;
  readonly sweepSeconds: Histogram;
  /** Delivery recovery (docs/protocol.md §12): `found`, `redelivered`, `failed`. */
  readonly redeliveries: Counter<'result'>;
  /** 1 once GitHub answered at start-up and webhooks are taken; 0 while start-up waits. */
  readonly started: Gauge;
  /** Start-up attempts to reach GitHub that failed and were retried. */
  readonly startupRetries: Counter;
  /** What alerts and the dashboard read besides these (src/telemetry/ops-metrics.ts). */
  readonly ops: OpsMetrics;
}

/** Creates the metrics; `queueDepth` is read from the queue at scrape time. */
export function createMetrics(queueDepth: () => Promise<number>): Metrics {
  const registry = new Registry();
  return {
    registry,
    webhooks: new Counter({
      name: 'claims_webhooks_total',
      help: 'Webhook deliveries received, by event and what the app did with them',
      labelNames: ['event', 'result'],
      registers: [registry],
    }),
    reconciles: new Counter({
      name: 'claims_reconciles_total',
      help: 'Issue reconciles, by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    reconcilesKeptDue: new Counter({
      name: 'claims_reconciles_kept_due_total',
      help: 'Reconciles that failed on every attempt and were kept due for the sweep to retry',
      registers: [registry],
    }),
    finalisations: new Counter({
      name: 'claims_finalisations_total',
      help: 'Claim comments finalised, by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
    reviewReads: new Counter({
      name: 'claims_review_reads_total',
      help: 'Stale claims whose branch was read for work to review, by result (work, none, failed: left as it is until the next sweep)',
      labelNames: ['result'],
      registers: [registry],
    }),
    observedWrites: new Counter({
      name: 'claims_observed_writes_total',
      help: 'Writes a repository in observe mode would have sent, by action kind',
      labelNames: ['kind'],
      registers: [registry],
    }),
    githubCalls: new Counter({
      name: 'claims_github_requests_total',
      help: 'GitHub REST requests, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'claims_queue_depth',
      help: 'Reconcile requests waiting or delayed for retry',
      registers: [registry],
      async collect() {
        this.set(await queueDepth());
      },
    }),
    sweepSeconds: new Histogram({
      name: 'claims_sweep_duration_seconds',
      help: 'Duration of one sweep of the deadline index',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
    redeliveries: new Counter({
      name: 'claims_redeliveries_total',
      help: 'Failed webhook deliveries found by delivery recovery, redelivered, and refused by GitHub',
      labelNames: ['result'],
      registers: [registry],
    }),
    started: new Gauge({
      name: 'claims_started',
      help: 'Whether start-up has reached GitHub and webhooks are taken (1) or it is still retrying (0)',
      registers: [registry],
    }),
    startupRetries: new Counter({
      name: 'claims_startup_retries_total',
      help: 'Start-up attempts to reach GitHub that failed and were retried',
      registers: [registry],
    }),
    ops: createOpsMetrics(registry),
  };
}
