import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createHttpRoutes } from '../../src/app/http.js';
import { createMetrics } from '../../src/app/metrics.js';
import { MemoryQueue } from '../../src/queue/memory-queue.js';
import { MemoryStore } from '../../src/store/memory-store.js';

/** The routes of a later room (the claims API, the board) registered beside /health. */
function routes() {
  const served: string[] = [];
  const http = createHttpRoutes({
    store: new MemoryStore(),
    queue: new MemoryQueue({ logger: pino({ level: 'silent' }) }),
    metrics: createMetrics(async () => 0),
  });
  http.route('GET', '/claims', () => void served.push('board'));
  http.route('GET', '/api/claims/v1/', () => void served.push('api'));
  http.route('POST', '/api/claims/v1/', () => void served.push('api write'));
  http.route('GET', '/api/claims/v1/repos/', () => void served.push('api repos'));
  const ask = async (method: string, url: string) => {
    const handled = await http.handle(
      { method, url } as IncomingMessage,
      { writeHead: () => ({ end() {} }), end() {} } as unknown as ServerResponse,
    );
    return handled ? (served.pop() ?? 'built-in') : 'left to Probot';
  };
  return ask;
}

describe('the app’s HTTP routes', () => {
  it.each([
    ['GET', '/claims', 'board'],
    ['GET', '/claims?repo=acme/widgets', 'board'],
    ['GET', '/api/claims/v1/issues?claimable=true', 'api'],
    ['POST', '/api/claims/v1/repos/acme/widgets/issues/1/claim', 'api write'],
    ['GET', '/api/claims/v1/repos/acme/widgets/issues/1/claim', 'api repos'],
    ['GET', '/health', 'built-in'],
    ['GET', '/metrics', 'built-in'],
    ['DELETE', '/claims', 'left to Probot'],
    ['GET', '/claimsx', 'left to Probot'],
    ['GET', '/api/claims/v2/issues', 'left to Probot'],
  ])('%s %s is served by %s', async (method, url, expected) => {
    expect(await routes()(method, url)).toBe(expected);
  });
});
