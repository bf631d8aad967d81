import { afterAll } from 'vitest';
import { claimComment, harnessFor, type OnFinished } from '../e2e/e2e-helpers.js';
import type { FakeGitHub, InjectionSpec } from '../fake-github/fake-github.js';
import { type Harness, REPO } from '../helpers/app-harness.js';

/** An answer of the claims API as a test reads it. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are asserted on shape by the tests
  readonly body: any;
}

/** Calls the claims API of the app at `appUrl` with `token` (none: no Authorization header). */
export async function callApi(
  appUrl: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const response = await fetch(`${appUrl}/api/claims/v1${path}`, {
    method,
    headers: {
      ...options.headers,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined || options.rawBody !== undefined
        ? { 'content-type': 'application/json' }
        : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    ...(options.rawBody !== undefined ? { body: options.rawBody } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

/** A caller bound to one app and one GitHub login: `as.post('/repos/…/claim', body)`. */
export function caller(appUrl: string, fake: FakeGitHub, login: string) {
  const token = fake.tokenFor(login);
  return {
    token,
    get: (path: string) => callApi(appUrl, 'GET', path, { token }),
    post: (path: string, body: unknown) => callApi(appUrl, 'POST', path, { token, body }),
    delete: (path: string, body: unknown) => callApi(appUrl, 'DELETE', path, { token, body }),
  };
}

/** `/repos/acme/widgets/issues/N/claim`. */
export function claimPath(n: number, repo = 'acme/widgets'): string {
  return `/repos/${repo}/issues/${n}/claim`;
}

/** A claim request body for `session` (lane and branch derived). */
export function claimBody(session: string, extra: Record<string, unknown> = {}) {
  return { session, lane: `lane-${session}`, branch: `feat/${session}`, ...extra };
}

/** Requests the caller's token made (everything but the app's and its installations'). */
export function callerRequests(fake: FakeGitHub, login: string) {
  return fake.requests.filter((r) => r.actor === login);
}

/**
 * One harness started on first use and shared by a test file's calls, closed when that file's
 * tests are done. Call it at the top level of the test file.
 */
export function fileHarness(): () => Promise<Harness> {
  let shared: Promise<Harness> | undefined;
  const hooks: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const hook of hooks) await hook();
  });
  return () => {
    shared ??= harnessFor((fn) => {
      hooks.push(fn);
    });
    return shared;
  };
}

/**
 * A fresh app and fake GitHub holding one open issue `n` on REPO, with `alice` calling the
 * API; closed when the test ends. It is the harness itself, so `app` follows a restart.
 */
export async function withIssue(
  onFinished: OnFinished,
  options: Parameters<typeof harnessFor>[1] = {},
) {
  const harness = await harnessFor(onFinished, options);
  return Object.assign(harness, {
    n: harness.fake.createIssue(REPO),
    alice: caller(harness.appUrl, harness.fake, 'alice'),
  });
}

/** `withIssue`, the issue claimed by bob's session `s-bob` in a comment the app has settled. */
export async function heldByBob(
  onFinished: OnFinished,
  options: Parameters<typeof harnessFor>[1] = {},
) {
  const harness = await withIssue(onFinished, options);
  const held = harness.fake.addComment(REPO, harness.n, {
    author: 'bob',
    body: claimComment('s-bob'),
  });
  await harness.settle();
  return Object.assign(harness, { held });
}

/** GitHub answering alice's claim comment POST on issue `n` with `reply` instead of posting. */
export function answerAlicesComment(
  fake: FakeGitHub,
  n: number,
  reply: Omit<InjectionSpec, 'method' | 'path' | 'actor'>,
): void {
  fake.inject({
    method: 'POST',
    path: `/repos/${REPO}/issues/${n}/comments`,
    actor: 'alice',
    ...reply,
  });
}

/** `withIssue` with a second open issue: `n1` and `n2`, and `bob` calling beside `alice`. */
export async function withTwoIssues(onFinished: OnFinished) {
  const harness = await harnessFor(onFinished);
  const { fake, appUrl } = harness;
  return Object.assign(harness, {
    n1: fake.createIssue(REPO),
    n2: fake.createIssue(REPO),
    alice: caller(appUrl, fake, 'alice'),
    bob: caller(appUrl, fake, 'bob'),
  });
}

/**
 * `withIssue` on one clock for the app and the fake, moved on by `advance(ms)`: `updated` is
 * whole seconds, so two calls in one second of real time would write the same time.
 */
export async function withIssueOnClock(onFinished: OnFinished) {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const harness = await withIssue(onFinished, { main: { now } });
  harness.fake.clock = now;
  return Object.assign(harness, {
    advance: (ms: number) => {
      offset += ms;
    },
  });
}
