/**
 * One route table: docs/security.md's table, the operation catalogue and the route table name
 * the same routes; the running server serves each of them (each method, nothing more) from
 * its own room; before GitHub is reached each answers as the table's `whileStarting` says.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/api/claims-api.js';
import { ROUTE_TABLE, type RouteEntry } from '../../src/app/route-table.js';
import { OPERATIONS } from '../../src/operations/catalogue.js';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { startUnreachable } from './startup-helpers.js';

/** The `METHOD /path` code spans of the first cell of each row of docs/security.md's table. */
function documentedRoutes(): string[] {
  const text = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
  const table = text.slice(text.indexOf('## Routes'));
  const rows = table.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => {
    const first = row.split(' | ')[0]!;
    return [...first.matchAll(/`([A-Z]+ \/[^`]*)`/g)].map((m) => m[1]!);
  });
}

const isPrefix = (entry: RouteEntry) => entry.path.endsWith('/');
const operationRoutes = OPERATIONS.map((op) => `${op.method} ${API_PREFIX}${op.route}`);

/** The table entry that serves `method path`, as HttpRoutes picks it. */
function servedBy(method: string, path: string): RouteEntry | undefined {
  const serving = ROUTE_TABLE.filter((e) => e.methods.includes(method));
  return (
    serving.find((e) => !isPrefix(e) && e.path === path) ??
    serving
      .filter((e) => isPrefix(e) && path.startsWith(e.path))
      .sort((a, b) => b.path.length - a.path.length)[0]
  );
}

/** A path of an entry to ask for: the path, or one under a prefix. */
const sampleOf = (entry: RouteEntry) => (isPrefix(entry) ? `${entry.path}x` : entry.path);

async function ask(base: string, method: string, path: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(method === 'GET' ? {} : { body: '{}' }),
  });
  return { status: response.status, body: await response.text(), response };
}

describe('the route table', () => {
  it('docs/security.md documents every route of the table and the catalogue, and no other', () => {
    const documented = documentedRoutes();
    // Each documented route is served: an API route by an operation of the catalogue.
    for (const route of documented) {
      const [method, path] = route.split(' ') as [string, string];
      if (path.startsWith(`${API_PREFIX}/`)) expect(operationRoutes, route).toContain(route);
      else expect(servedBy(method, path), route).toBeDefined();
    }
    // Each operation and each route of the table is documented.
    for (const route of operationRoutes) expect(documented, route).toContain(route);
    for (const entry of ROUTE_TABLE.filter((e) => e.path !== `${API_PREFIX}/`)) {
      const paths = documented.map((route) => route.split(' ')[1]!);
      const named = isPrefix(entry)
        ? paths.some((p) => p.startsWith(entry.path))
        : paths.includes(entry.path);
      expect(named, entry.path).toBe(true);
    }
  });

  it('the server answers each route and method of the table from its room, and no other method', async ({
    onTestFinished,
  }) => {
    const { appUrl } = await harnessFor(onTestFinished);
    const probot = await ask(appUrl, 'GET', '/no-such-route');
    expect(probot.status).toBe(404);
    for (const entry of ROUTE_TABLE) {
      for (const method of entry.methods) {
        const answer = await ask(appUrl, method, sampleOf(entry));
        const what = `${method} ${sampleOf(entry)}`;
        expect({ what, ...answer, response: undefined }).not.toEqual({
          what,
          ...probot,
          response: undefined,
        });
      }
      if (!isPrefix(entry) && entry.serve !== 'webhooks' && !entry.methods.includes('PUT')) {
        expect((await ask(appUrl, 'PUT', entry.path)).status, `PUT ${entry.path}`).toBe(404);
      }
    }
  });

  it('before GitHub is reached, each route answers as its whileStarting says', async () => {
    const { url, githubAnswers } = await startUnreachable();
    const base = url('');
    const probot = await ask(base, 'GET', '/no-such-route');
    for (const entry of ROUTE_TABLE) {
      for (const method of entry.methods) {
        const what = `${method} ${sampleOf(entry)} (${entry.whileStarting})`;
        const answer = await ask(base, method, sampleOf(entry));
        if (entry.whileStarting === 'probot') {
          expect({ what, status: answer.status, body: answer.body }).toEqual({
            what,
            status: probot.status,
            body: probot.body,
          });
        } else if (entry.whileStarting === 'itself') {
          expect(answer.body, what).not.toBe(probot.body);
        } else {
          expect({ what, status: answer.status }).toEqual({ what, status: 503 });
          expect(answer.response.headers.get('retry-after'), what).toMatch(/^[1-9]\d*$/);
          if (entry.whileStarting === 'starting-api') {
            expect(JSON.parse(answer.body), what).toMatchObject({ status: 'starting' });
          } else {
            expect(answer.body, what).toMatch(/starting/);
          }
        }
      }
    }
    await githubAnswers();
  });
});
