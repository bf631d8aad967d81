import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * The metrics an on-call engineer alerts on and reads on the dashboard (docs/operations.md),
 * beside the counters of src/app/metrics.ts: what GitHub says is left of each installation's
 * budget, how long reconciles and their wait in the queue take, when the sweep last finished,
 * and what the claims API and its MCP tools answer.
 */
export interface OpsMetrics {
  /** `x-ratelimit-remaining` of the last answer, by installation (`app`: the JWT) and resource. */
  readonly budgetRemaining: Gauge<'installation' | 'resource'>;
  /** `x-ratelimit-limit` of the last answer. */
  readonly budgetLimit: Gauge<'installation' | 'resource'>;
  /** `x-ratelimit-reset`: when the budget fills again, in Unix seconds. */
  readonly budgetReset: Gauge<'installation' | 'resource'>;
  readonly reconcileSeconds: Histogram<'outcome'>;
  /** From the oldest request a run serves being queued to the run starting. */
  readonly queueWaitSeconds: Histogram;
  /** Unix seconds of the last sweep this replica ran to its end. */
  readonly sweepLastSuccess: Gauge;
  /** Claims API calls, by surface (`rest`, `mcp`), method, route template, status and code. */
  readonly apiRequests: Counter<'surface' | 'method' | 'route' | 'status' | 'code'>;
  readonly apiSeconds: Histogram<'surface' | 'method' | 'route'>;
}

/** Creates the metrics on `registry`. */
export function createOpsMetrics(registry: Registry): OpsMetrics {
  const registers = [registry];
  const budget = ['installation', 'resource'] as const;
  return {
    budgetRemaining: new Gauge({
      name: 'claims_github_rate_limit_remaining',
      help: 'Requests left in the GitHub rate-limit window (x-ratelimit-remaining), by installation and resource',
      labelNames: budget,
      registers,
    }),
    budgetLimit: new Gauge({
      name: 'claims_github_rate_limit_limit',
      help: 'Requests allowed per GitHub rate-limit window (x-ratelimit-limit), by installation and resource',
      labelNames: budget,
      registers,
    }),
    budgetReset: new Gauge({
      name: 'claims_github_rate_limit_reset_timestamp_seconds',
      help: 'When the GitHub rate-limit window resets (x-ratelimit-reset), Unix seconds',
      labelNames: budget,
      registers,
    }),
    reconcileSeconds: new Histogram({
      name: 'claims_reconcile_duration_seconds',
      help: 'Duration of one issue reconcile, GitHub reads and writes included, by outcome',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    queueWaitSeconds: new Histogram({
      name: 'claims_queue_wait_seconds',
      help: 'Time from a reconcile request being queued to its run starting',
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
      registers,
    }),
    sweepLastSuccess: new Gauge({
      name: 'claims_sweep_last_success_timestamp_seconds',
      help: 'When this replica last finished a sweep of the deadline index, Unix seconds',
      registers,
    }),
    apiRequests: new Counter({
      name: 'claims_api_requests_total',
      help: 'Claims API calls (REST and MCP tools), by surface, method, route, status and error code',
      labelNames: ['surface', 'method', 'route', 'status', 'code'],
      registers,
    }),
    apiSeconds: new Histogram({
      name: 'claims_api_request_duration_seconds',
      help: 'Duration of one claims API call (REST or MCP tool), by surface, method and route',
      labelNames: ['surface', 'method', 'route'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
  };
}
