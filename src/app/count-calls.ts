import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import { statusOf } from '../github/errors.js';
import { recordBudget } from '../telemetry/record-budget.js';
import { type Metrics, routeTemplate } from './metrics.js';

const counted = new WeakSet<object>();
const TOKEN_ROUTE = '/app/installations/{installation_id}/access_tokens';

/**
 * Counts every GitHub request of an octokit in `claims_github_requests_total`, by method,
 * route template and status (`error` when no answer came); once per octokit, however often
 * it is handed out. A failed installation token request is logged as a warning too: every
 * call of that installation fails with it, and the error the reconcile logs names only the
 * call it was making. The `x-ratelimit-*` headers of every answer become the budget gauges of
 * `installation` (an id, or `app` for the JWT client).
 */
export function countCalls(
  octokit: ProbotOctokit,
  metrics: Metrics,
  log: Logger,
  installation: string,
): void {
  if (counted.has(octokit)) return;
  counted.add(octokit);
  octokit.hook.wrap('request', async (request, options) => {
    const labels = { method: options.method, route: routeTemplate(options.url) };
    try {
      const response = await request(options);
      metrics.githubCalls.inc({ ...labels, status: String(response.status) });
      recordBudget(metrics.ops, installation, response.headers);
      return response;
    } catch (error) {
      const status = statusOf(error);
      metrics.githubCalls.inc({ ...labels, status: String(status ?? 'error') });
      const headers = (error as { response?: { headers?: Record<string, string> } }).response;
      if (headers?.headers) recordBudget(metrics.ops, installation, headers.headers);
      if (labels.route === TOKEN_ROUTE) {
        const installationId = (options as { installation_id?: unknown }).installation_id;
        log.warn(
          {
            installationId,
            status,
            reason: error instanceof Error ? error.message : String(error),
          },
          'installation token request failed',
        );
      }
      throw error;
    }
  });
}
