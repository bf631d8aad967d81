import type { ProbotOctokit } from 'probot';
import { statusOf } from '../github/thread.js';
import { type Metrics, routeTemplate } from './metrics.js';

const counted = new WeakSet<object>();

/**
 * Counts every GitHub request of an octokit in `claims_github_requests_total`, by method,
 * route template and status (`error` when no answer came); once per octokit, however often
 * it is handed out.
 */
export function countCalls(octokit: ProbotOctokit, metrics: Metrics): void {
  if (counted.has(octokit)) return;
  counted.add(octokit);
  octokit.hook.wrap('request', async (request, options) => {
    const labels = { method: options.method, route: routeTemplate(options.url) };
    try {
      const response = await request(options);
      metrics.githubCalls.inc({ ...labels, status: String(response.status) });
      return response;
    } catch (error) {
      metrics.githubCalls.inc({ ...labels, status: String(statusOf(error) ?? 'error') });
      throw error;
    }
  });
}
