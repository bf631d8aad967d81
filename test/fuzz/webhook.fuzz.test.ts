import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchChild, spawnChild } from '../../bench/spawn-child.js';
import { freePort, STACK_SECRET, stackEnv, WEBHOOK_PATH } from '../../sandbox/stack.js';
import { renderClaimComment } from '../../src/claims/comment.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { type FakeGitHub, signWebhook, startFakeGitHub } from '../fake-github/fake-github.js';

/*
 * The webhook handler of the real app (npm start's main(), in a child process so that its pino
 * log on stdout can be read) against hostile deliveries: wrong types and missing fields in
 * otherwise genuine payloads, bad signatures, bodies that are not JSON, payloads sent under
 * another event's name. The fake GitHub holds one issue whose state is already what docs/protocol.md §4
 * asks (alice holds it, labelled and assigned), so any write at all would be a wrong one.
 * After each barrage: the process still answers, GitHub saw no write, and every refused or
 * failed delivery left an error line in the log naming it.
 */

const REPO = 'acme/widgets';
const INSTALLATION = 7;

interface Template {
  readonly event: string;
  readonly name: string;
  readonly payload: Record<string, unknown>;
}

interface Answer {
  readonly id: string;
  readonly status: number;
}

let fake: FakeGitHub;
let app: BenchChild;
let appUrl: string;
let templates: Template[];
let writesBefore: number;

function claim(session: string, note?: string): string {
  const at = new Date();
  return renderClaimComment(
    {
      session,
      lane: 'main',
      branch: 'fix/it',
      started: at,
      updated: at,
      stage: 'implementing',
      assignee: 'claim',
    },
    note ? { note } : {},
  );
}

/** Writes GitHub saw, apart from token minting (authentication, not a change). */
function writes(): string[] {
  return fake
    .writes()
    .filter((r) => !/^\/app\/installations\/[^/]+\/access_tokens$/.test(r.path))
    .map((r) => `${r.method} ${r.path}`);
}

async function post(body: string, headers: Record<string, string>): Promise<Answer> {
  const id = randomUUID();
  const response = await fetch(`${appUrl}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-delivery': id, ...headers },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  await response.text();
  return { id, status: response.status };
}

function signed(event: string, body: string): Promise<Answer> {
  return post(body, {
    'x-github-event': event,
    'x-hub-signature-256': signWebhook(STACK_SECRET, body),
  });
}

/** Waits until GitHub has heard nothing from the app for `quietMs`. */
async function quiet(quietMs = 400): Promise<void> {
  let seen = -1;
  while (seen !== fake.requests.length) {
    seen = fake.requests.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

/** The app's log lines (pino JSON) at `minLevel` or above, from line `since` on. */
function logged(minLevel: number, since = 0): Array<Record<string, unknown> & { raw: string }> {
  return app.output.slice(since).flatMap((raw) => {
    try {
      const line = JSON.parse(raw) as Record<string, unknown>;
      return Number(line.level) >= minLevel ? [{ ...line, raw }] : [];
    } catch {
      return [];
    }
  });
}

/** Still alive: the process has not exited and answers /health. */
async function answers(): Promise<void> {
  expect(app.process.exitCode).toBeNull();
  const health = await fetch(`${new URL(appUrl).origin}/health`);
  expect(health.status).toBe(200);
}

/**
 * Every answer of 400 or more is in the log: the request line naming its delivery and status,
 * and an error line for each (a signed body that is not JSON, or a handler's error).
 */
function expectLoggedFailures(answered: readonly Answer[], since: number): void {
  const lines = logged(0, since);
  const failed = answered.filter((a) => a.status >= 400);
  const unlogged = failed.filter(
    (a) =>
      !lines.some(
        (line) => line.raw.includes(a.id) && (line.status === a.status || Number(line.level) >= 50),
      ),
  );
  expect(unlogged, 'failed deliveries that no log line names').toEqual([]);
  expect(lines.filter((line) => Number(line.level) >= 50).length).toBeGreaterThanOrEqual(
    failed.length,
  );
}

beforeAll(async () => {
  fake = await startFakeGitHub({ log: () => {} });
  fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  fake.addUser('mallory', { association: 'NONE' });
  const n = fake.createIssue(REPO, { title: 'Held by alice' });
  const held = fake.addComment(REPO, n, { author: 'alice', body: claim('s-alice') });
  fake.createLabel(REPO, { name: 'status:in-progress', color: '1d76db' });
  fake.addLabels(REPO, n, ['status:in-progress']);
  fake.assign(REPO, n, ['alice']);
  // Genuine deliveries to start from; none of them asks for a change.
  fake.setWebhookTarget({ capture: true });
  fake.editComment(held.id, claim('s-alice', 'still on it'));
  fake.addComment(REPO, n, { author: 'alice', body: 'Found the cause.' });
  fake.addComment(REPO, n, { author: 'mallory', body: claim('s-mallory') });
  fake.addLabels(REPO, n, ['bug'], { actor: 'alice' });
  templates = fake.deliveries.map((d) => ({
    event: d.event,
    name: `${d.event}.${d.action}`,
    payload: JSON.parse(d.body) as Record<string, unknown>,
  }));
  // A created delivery of the holder's own comment: a marker from a collaborator.
  const edited = templates.find((t) => t.name === 'issue_comment.edited')!;
  const { changes: _changes, ...created } = edited.payload;
  templates.push({
    event: 'issue_comment',
    name: 'issue_comment.created (claim)',
    payload: { ...created, action: 'created' },
  });

  const port = await freePort();
  app = await spawnChild(
    'app',
    stackEnv(fake, port, { LOG_LEVEL: 'info', CLAIMS_SWEEP_INTERVAL: '24h' }),
  );
  appUrl = `http://127.0.0.1:${port}`;
  await quiet();
  writesBefore = writes().length;
  expect(writes(), 'the seeded issue needs no write').toEqual([]);
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

/** Every path of a JSON value, objects and the first element of arrays, to `depth`. */
function paths(value: unknown, depth = 4, prefix: string[] = []): string[][] {
  if (depth === 0 || value === null || typeof value !== 'object') return [];
  const out: string[][] = [];
  const entries = Array.isArray(value)
    ? value.length
      ? [['0', value[0]] as const]
      : []
    : Object.entries(value);
  for (const [key, inner] of entries) {
    const path = [...prefix, key];
    out.push(path, ...paths(inner, depth - 1, path));
  }
  return out;
}

/** Values a payload field should never hold; never a claim marker (that would be a real event). */
const hostileValue = fc
  .oneof(
    fc.constant(null),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.string({ unit: 'binary', maxLength: 64 }),
    fc.constantFrom([], {}, [null], { id: 'x' }, '', ' ', '\u0000', 'x'.repeat(100_000)),
    fc.constantFrom('<!-- praetor-claim v=1 -->', '<!-- praetor-claim v=1 session=x lane=y -->'),
  )
  .filter((value) => typeof value !== 'string' || parseClaimMarker(value) === null);

/** Stands for "delete the field" in a table of edits. */
const REMOVE = Symbol('remove');

/** Sets (or with REMOVE deletes) the field at `path` of a JSON object. */
function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let parent = target;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const key = path[path.length - 1]!;
  if (value === REMOVE) delete parent[key];
  else parent[key] = value;
}

interface Edit {
  readonly at: number;
  readonly remove: boolean;
  readonly value: unknown;
}

function withEdits(payload: Record<string, unknown>, edits: readonly Edit[]): unknown {
  const copy = structuredClone(payload);
  const all = paths(copy);
  for (const edit of edits) {
    const path = all[edit.at % all.length]!;
    let parent: Record<string, unknown> = copy;
    for (const key of path.slice(0, -1)) {
      const next = parent[key];
      if (next === null || typeof next !== 'object') return copy;
      parent = next as Record<string, unknown>;
    }
    const key = path[path.length - 1]!;
    if (edit.remove) delete parent[key];
    else parent[key] = edit.value;
  }
  return copy;
}

describe('fuzz: the webhook handler of the running app', () => {
  it('wrong types and missing fields: no crash, no write, every failure logged with its delivery', async () => {
    const since = app.output.length;
    const answered: Answer[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...templates),
        fc.array(fc.record({ at: fc.nat(), remove: fc.boolean(), value: hostileValue }), {
          minLength: 1,
          maxLength: 3,
        }),
        async (template, edits) => {
          const answer = await signed(
            template.event,
            JSON.stringify(withEdits(template.payload, edits)),
          );
          answered.push(answer);
          expect([200, 202, 400, 500]).toContain(answer.status);
        },
      ),
      { numRuns: 120 },
    );
    await quiet();
    await answers();
    expect(writes().slice(writesBefore)).toEqual([]);
    expectLoggedFailures(answered, since);
  });

  it('bad signatures are refused with 401 (400 when missing) and logged; nothing runs', async () => {
    const since = app.output.length;
    const body = JSON.stringify(
      templates.find((t) => t.name === 'issue_comment.created (claim)')!.payload,
    );
    const good = signWebhook(STACK_SECRET, body);
    const answered: Answer[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constant(undefined),
          fc.constant(''),
          fc.constant('sha256='),
          fc.constant(signWebhook('not-the-secret', body)),
          fc.constant(good.slice(0, -1)),
          fc.constant(good.toUpperCase()),
          fc.constant(good.replace('sha256=', 'sha1=')),
          fc.nat({ max: good.length - 8 }).map((i) => {
            const at = 7 + i;
            return good.slice(0, at) + (good[at] === '0' ? '1' : '0') + good.slice(at + 1);
          }),
          fc.stringMatching(/^[\x21-\x7e]{0,80}$/),
        ),
        async (signature) => {
          fc.pre(signature !== good);
          const answer = await post(body, {
            'x-github-event': 'issue_comment',
            ...(signature === undefined ? {} : { 'x-hub-signature-256': signature }),
          });
          answered.push(answer);
          // The webhook door checks the signature itself: a missing or empty
          // one is a bad request, one that does not match is unauthenticated.
          expect(answer.status).toBe(signature ? 401 : 400);
        },
      ),
      { numRuns: 40 },
    );
    await quiet();
    await answers();
    expect(writes().slice(writesBefore)).toEqual([]);
    // An outsider's refusal is a warning (it says nothing about the app), naming the delivery.
    const refusals = logged(40, since).filter((line) =>
      /signature|headers missing/i.test(String(line.msg)),
    );
    for (const { id } of answered) {
      expect(refusals.some((line) => line.delivery === id)).toBe(true);
    }
  });

  it('bodies that are not JSON, huge bodies and payloads under another event’s name: no crash, no write', async () => {
    const since = app.output.length;
    const answered: Answer[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc
            .string({ unit: 'binary', maxLength: 200 })
            .map((text) => ({ event: 'issue_comment', body: text })),
          fc
            .constantFrom(...templates)
            .map((t) => ({ event: t.event, body: JSON.stringify(t.payload).slice(0, -1) })),
          fc
            .tuple(
              fc.constantFrom(...templates),
              fc.constantFrom(
                'issues',
                'issue_comment',
                'installation',
                'installation_repositories',
                'ping',
                'push',
                'no_such_event',
              ),
            )
            .map(([t, event]) => ({ event, body: JSON.stringify(t.payload) })),
        ),
        async ({ event, body }) => {
          const answer = await signed(event, body);
          answered.push(answer);
          expect([200, 202, 400, 500]).toContain(answer.status);
        },
      ),
      { numRuns: 80 },
    );
    // A 2 MB comment (GitHub allows 65,536 characters; a forged delivery can carry more).
    const huge = structuredClone(
      templates.find((t) => t.name === 'issue_comment.created (claim)')!.payload,
    );
    (huge.comment as Record<string, unknown>).body =
      `${claim('s-alice')}\n${'x'.repeat(2 * 1024 * 1024)}`;
    answered.push(await signed('issue_comment', JSON.stringify(huge)));
    await quiet();
    await answers();
    expect(writes().slice(writesBefore)).toEqual([]);
    expectLoggedFailures(answered, since);
  });

  // Fails today: src/app/route-event.ts trusts the payload's types, so a field of the wrong type
  // throws a TypeError out of routeEvent: Probot answers 500 (GitHub would mark the delivery
  // failed, and a redelivery fails the same way) and the only log line is the TypeError
  // ("head.indexOf is not a function"), which names no field.
  it.each([
    ['comment.body is a number', ['comment', 'body'], 42],
    ['comment is missing', ['comment'], REMOVE],
    ['issue is null', ['issue'], null],
  ] as const)(
    'a delivery whose %s is acknowledged without a 5xx and logged as malformed, naming the field',
    async (_what, path, value) => {
      const name = 'issue_comment.created (claim)';
      const field = path.join('.');
      const payload = structuredClone(templates.find((t) => t.name === name)!.payload);
      setPath(payload, path, value);
      const template = templates.find((t) => t.name === name)!;
      const answer = await signed(template.event, JSON.stringify(payload));
      await quiet(200);
      const lines = logged(40).filter((line) => line.raw.includes(answer.id));
      expect(answer.status).toBeLessThan(500);
      expect(lines.map((line) => String(line.msg))).toContainEqual(
        expect.stringMatching(/malformed/i),
      );
      expect(lines.some((line) => line.raw.includes(field))).toBe(true);
      expect(writes().slice(writesBefore)).toEqual([]);
    },
  );
});
