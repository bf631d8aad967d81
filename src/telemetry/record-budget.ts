import type { OpsMetrics } from './ops-metrics.js';

/** Response headers as octokit hands them on (lower-case names). */
type Headers = Readonly<Record<string, string | number | undefined>>;

/**
 * Records what GitHub says is left of a budget, from the `x-ratelimit-*` headers it sends on
 * every answer, errors included (docs/api-budget.md). `installation` is the installation id,
 * or `app` for the app's own JWT calls; the resource (`core`, `search`, `graphql`) is GitHub's.
 * An answer without the headers (a network error, GitHub Enterprise with limits off) records
 * nothing, so the gauge keeps the last value GitHub gave.
 */
export function recordBudget(metrics: OpsMetrics, installation: string, headers: Headers): void {
  const remaining = numberOf(headers['x-ratelimit-remaining']);
  const limit = numberOf(headers['x-ratelimit-limit']);
  const reset = numberOf(headers['x-ratelimit-reset']);
  if (remaining === undefined || limit === undefined || reset === undefined) return;
  const labels = { installation, resource: String(headers['x-ratelimit-resource'] ?? 'core') };
  metrics.budgetRemaining.set(labels, remaining);
  metrics.budgetLimit.set(labels, limit);
  metrics.budgetReset.set(labels, reset);
}

function numberOf(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
