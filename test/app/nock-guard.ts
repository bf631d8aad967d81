import nock from 'nock';
import { expect } from 'vitest';

/*
 * The nock guard (Renovate's test/http-mock.ts habit): every request the app makes to GitHub
 * is recorded (`calls`), a request no mock matches fails the test, and so does a mock that was
 * never called (`checkNock`, after each test).
 */

/** The host nock intercepts: GitHub's REST API. */
export const API = 'https://api.github.com';

/** One request that reached a mock: what the app sent. */
export interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}

/** Every request the app made in this test, in order (token requests included). */
export const calls: Call[] = [];
/** Requests that matched no mock. */
export const unmatched: string[] = [];

/**
 * Closes the network, records unmatched requests; call once per file (beforeAll). Nock
 * intercepts from its import on; a file after one that restored it (test files share a
 * process) turns it on again.
 */
export function installNockGuards(): void {
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  nock.emitter.on('no match', (req: NoMatch, options?: NoMatch) => {
    const where = options ?? req;
    const host = where.hostname ?? where.host ?? '';
    // Requests to the loopback server of the HTTP tests are let through, not unmatched.
    if (host.startsWith('127.0.0.1')) return;
    unmatched.push(`${where.method ?? req.method ?? '?'} ${host}${where.path ?? req.path ?? ''}`);
  });
}

/**
 * Opens the network again and takes nock out of `http` and `fetch`; call once per file
 * (afterAll). The next test file in this process then talks to the real network stack.
 */
export function removeNockGuards(): void {
  nock.emitter.removeAllListeners('no match');
  nock.enableNetConnect();
  nock.cleanAll();
  nock.restore();
}

/** What nock's 'no match' event carries: request options, or a ClientRequest and its options. */
interface NoMatch {
  method?: string;
  host?: string;
  hostname?: string;
  path?: string;
}

/** Fails the test on an unmatched request or an unused mock; call after each test. */
export function checkNock(): void {
  const pending = nock.pendingMocks();
  const misses = [...unmatched];
  nock.cleanAll();
  calls.length = 0;
  unmatched.length = 0;
  expect(misses, 'requests that matched no mock').toEqual([]);
  expect(pending, 'mocks that were never called').toEqual([]);
}

/** The writes among the recorded calls (token requests excluded), in order. */
export function writes(): Call[] {
  return calls.filter((c) => c.method !== 'GET' && !c.path.endsWith('/access_tokens'));
}

/** How many recorded calls were `GET path` exactly. */
export function reads(path: string): number {
  return calls.filter((c) => c.method === 'GET' && c.path === path).length;
}

/** The HTTP methods the app sends. */
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
type Reply = readonly [status: number, data?: unknown, headers?: Record<string, string>];

/**
 * Mocks one GitHub request. `body`, when given, must equal the request body (vitest's
 * `toEqual`, so asymmetric matchers such as `expect.stringContaining` work). `reply` may be a
 * function, called once per request; `times` answers that many requests alike, `persist` any
 * number (at least one).
 */
export function mock(
  method: Method,
  path: string,
  reply: Reply | (() => Reply | Promise<Reply>),
  options: { body?: unknown; times?: number; persist?: boolean } = {},
): void {
  const { body } = options;
  const interceptor =
    body === undefined
      ? nock(API).intercept(path, method)
      : nock(API).intercept(path, method, (actual: unknown) => equals(actual, body));
  if (options.times !== undefined) interceptor.times(options.times);
  const scope = interceptor.reply(async (uri, requestBody) => {
    calls.push({
      method,
      path: uri,
      ...(requestBody === '' ? {} : { body: parseBody(requestBody) }),
    });
    const [status, data, headers] = typeof reply === 'function' ? await reply() : reply;
    return [status, data as nock.Body, { 'content-type': 'application/json', ...headers }];
  });
  if (options.persist) scope.persist();
}

/** A promise and the function that resolves it: holds a mocked reply until a test says so. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function equals(actual: unknown, expected: unknown): boolean {
  try {
    expect(actual).toEqual(expected);
    return true;
  } catch {
    return false;
  }
}

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
