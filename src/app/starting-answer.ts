import type { RouteHandler } from '../http-routes.js';

/** How long a caller is told to wait while start-up retries GitHub (`retry-after`, seconds). */
const STARTING_RETRY_AFTER_S = 5;

/**
 * The answer of the app's own routes (the board, the claims API) while start-up has not
 * reached GitHub: 503 with `retry-after`, instead of Probot's bare 404 that reads as "no such
 * page". The API's body is its error shape (docs/protocol.md §8) with `UNVERIFIABLE`: nothing
 * can be verified yet, so nothing is reported as held or free; the board's is a line of text.
 */
export function startingAnswer(kind: 'api' | 'page'): RouteHandler {
  const message = `claim-warden is starting: GitHub has not been reached yet, so nothing is known about any claim; retry in ${STARTING_RETRY_AFTER_S} s`;
  return (_req, res) => {
    const headers = { 'retry-after': String(STARTING_RETRY_AFTER_S), 'cache-control': 'no-store' };
    if (kind === 'api') {
      res.writeHead(503, { ...headers, 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'starting', error: { code: 'UNVERIFIABLE', message } }));
    } else {
      res.writeHead(503, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${message}\n`);
    }
  };
}
