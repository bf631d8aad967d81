import type { ProbotOctokit } from 'probot';
import { statusOf } from '../github/errors.js';
import { inRecordingSpan, inSpan, SpanKind, tracingOn } from '../tracing/tracing.js';
import { routeTemplate } from './route-template.js';

const traced = new WeakSet<object>();

/**
 * A span for every GitHub request of an octokit, once per octokit, when traces are on:
 * `GitHub GET /repos/{owner}/{repo}/issues/{id}` for a read and `GitHub write POST …` for a
 * write (anything but GET and HEAD), a child of the reconcile, API call or webhook that made
 * it; `installation` is its installation's id, `app` for the app's JWT, `caller` for a claims
 * API caller's own token (the claim comment it writes). The route is the template, as in the
 * metrics; the status is the answer's. Outside a recorded span (a sweep's timer, a trace the sampler left out) a request gets no span and no
 * attribute is worked out.
 */
export function traceCalls(octokit: ProbotOctokit, installation: string): void {
  if (!tracingOn() || traced.has(octokit)) return;
  traced.add(octokit);
  octokit.hook.wrap('request', async (request, options) => {
    if (!inRecordingSpan()) return request(options);
    const method = options.method;
    const route = routeTemplate(options.url);
    const write = method !== 'GET' && method !== 'HEAD';
    const attributes = {
      'http.request.method': method,
      'url.template': route,
      'claims.installation': installation,
      'claims.write': write,
    };
    const name = `GitHub ${write ? 'write ' : ''}${method} ${route}`;
    return inSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        const response = await request(options);
        span?.setAttribute('http.response.status_code', response.status);
        return response;
      } catch (error) {
        const status = statusOf(error);
        if (status !== undefined) span?.setAttribute('http.response.status_code', status);
        throw error;
      }
    });
  });
}
