import { afterEach, describe, expect, it } from 'vitest';
import { type IssueKey, issueKeyString } from '../../src/keys.js';
import type {
  Hint,
  QueueLogger,
  ReconcileHandler,
  ReconcileRequest,
  WorkQueue,
} from '../../src/queue/queue.js';

/** Options a contract test asks of the queue under test. */
export interface QueueFixtureOptions {
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly maxAttempts?: number;
  readonly concurrency?: number;
  readonly perInstallation?: number;
  readonly logger?: QueueLogger;
}

/** One queue under test and how to dispose of it. */
export interface QueueFixture {
  readonly queue: WorkQueue;
  cleanup(): Promise<void>;
}

/** An issue key for tests: acme/widgets in installation 7 unless told otherwise. */
export function issue(number: number, installationId = 7): IssueKey {
  return installationId === 7
    ? { installationId, owner: 'acme', repo: 'widgets', number }
    : { installationId, owner: `org-${installationId}`, repo: 'widgets', number };
}

/** A request for issue `number` of another installation's repository. */
export function requestIn(
  installationId: number,
  number: number,
  reason = 'test',
): ReconcileRequest {
  return { key: issue(number, installationId), hints: [], reason };
}

/** A distinct hint per request, so a test can tell which requests a run carried. */
export function hint(label: string): Hint {
  return { kind: 'label-removed', label, by: 'alice', at: '2030-01-01T00:00:00Z' };
}

/** A request for issue `number` carrying `hints`. */
export function request(number: number, hints: Hint[] = [], reason = 'test'): ReconcileRequest {
  return { key: issue(number), hints, reason };
}

/** A promise with its resolver outside, to hold a handler until a test lets it go. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Resolves once `condition` holds, polling; fails the test after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

/** Real-time sleep. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A small seeded PRNG (mulberry32), so the "random" interleavings are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One handler run as a test sees it. */
export interface Run {
  readonly issue: string;
  readonly hints: readonly Hint[];
  readonly reason: string;
  readonly startedAt: number;
}

/**
 * Wraps a handler body, recording every run and the most runs of one issue (and overall)
 * seen at the same time — the overlap the queue must never allow.
 */
export function recorder(
  body: (request: ReconcileRequest, run: Run) => Promise<void> = async () => {},
) {
  const runs: Run[] = [];
  const activeByIssue = new Map<string, number>();
  let active = 0;
  const state = { runs, maxPerIssue: 0, maxActive: 0 };
  const handler: ReconcileHandler = async (request) => {
    const id = issueKeyString(request.key);
    const run: Run = {
      issue: id,
      hints: request.hints,
      reason: request.reason,
      startedAt: Date.now(),
    };
    runs.push(run);
    const now = (activeByIssue.get(id) ?? 0) + 1;
    activeByIssue.set(id, now);
    active += 1;
    state.maxPerIssue = Math.max(state.maxPerIssue, now);
    state.maxActive = Math.max(state.maxActive, active);
    try {
      await body(request, run);
    } finally {
      activeByIssue.set(id, (activeByIssue.get(id) ?? 1) - 1);
      active -= 1;
    }
  };
  return { handler, state };
}

/** A logger that keeps what it was told. */
export function memoryLogger() {
  const entries: Array<{ level: 'warn' | 'error'; meta: object; message: string }> = [];
  const logger: QueueLogger = {
    warn: (meta, message) => entries.push({ level: 'warn', meta, message }),
    error: (meta, message) => entries.push({ level: 'error', meta, message }),
  };
  return { logger, entries };
}

/** The labels of the hints a run carried. */
export function labels(run: Run): string[] {
  return run.hints.map((h) => (h.kind === 'label-removed' ? h.label : h.kind));
}

/**
 * The guarantees of {@link WorkQueue} (docs/protocol.md §5): no overlap per issue, coalescing, exactly
 * one more run for a request that arrives mid-run, retries with backoff that keep hints.
 */
export function describeQueueContract(
  name: string,
  makeQueue: (options?: QueueFixtureOptions) => Promise<QueueFixture>,
): void {
  describe(`${name} (WorkQueue contract)`, () => {
    const fixtures: QueueFixture[] = [];
    async function make(options?: QueueFixtureOptions): Promise<WorkQueue> {
      const fixture = await makeQueue(options);
      fixtures.push(fixture);
      return fixture.queue;
    }
    afterEach(async () => {
      await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
    });

    it('runs a request with its hints and reason', async () => {
      const queue = await make();
      const { handler, state } = recorder();
      queue.start(handler);
      await queue.enqueue(request(1, [hint('a')], 'issue_comment.created'));
      await queue.idle();
      expect(state.runs).toHaveLength(1);
      expect(state.runs[0]).toMatchObject({
        issue: issueKeyString(issue(1)),
        hints: [hint('a')],
        reason: 'issue_comment.created',
      });
    });

    it('idle() resolves at once when nothing is queued', async () => {
      const queue = await make();
      queue.start(recorder().handler);
      await queue.idle();
      expect(await queue.depth()).toBe(0);
    });

    it('never runs one issue twice at once, and delivers every hint', async () => {
      const queue = await make();
      const random = seededRandom(42);
      const { handler, state } = recorder(() => sleep(2 + Math.floor(random() * 8)));
      queue.start(handler);
      const sent: string[] = [];
      for (let i = 0; i < 40; i++) {
        const label = `h${i}`;
        sent.push(label);
        await queue.enqueue(request(i % 3, [hint(label)], `event-${i}`));
        await sleep(Math.floor(random() * 4));
      }
      await queue.idle();
      expect(state.maxPerIssue).toBe(1);
      const delivered = new Set(state.runs.flatMap(labels));
      expect([...delivered].sort()).toEqual(sent.sort());
      for (const number of [0, 1, 2]) {
        expect(state.runs.some((run) => run.issue === issueKeyString(issue(number)))).toBe(true);
      }
    });

    it('requests that arrive during a run cause exactly one more run with all their hints', async () => {
      const queue = await make();
      const gate = deferred();
      const { handler, state } = recorder(async (_request, run) => {
        if (state.runs.indexOf(run) === 0) await gate.promise;
      });
      queue.start(handler);
      await queue.enqueue(request(1, [hint('first')], 'first'));
      await waitFor(() => state.runs.length === 1);
      const later = Array.from({ length: 10 }, (_, i) => `later-${i}`);
      for (const label of later) await queue.enqueue(request(1, [hint(label)], label));
      gate.resolve();
      await queue.idle();

      expect(state.runs).toHaveLength(2);
      expect(labels(state.runs[1]!)).toEqual(later);
      expect(state.runs[1]!.reason.split(', ')).toEqual(later);
    });

    it('requests waiting together coalesce into one run', async () => {
      const queue = await make();
      const { handler, state } = recorder();
      for (const label of ['a', 'b', 'c']) await queue.enqueue(request(1, [hint(label)], 'burst'));
      expect(await queue.depth()).toBe(1);
      queue.start(handler);
      await queue.idle();
      expect(state.runs).toHaveLength(1);
      expect(labels(state.runs[0]!)).toEqual(['a', 'b', 'c']);
      expect(state.runs[0]!.reason).toBe('burst');
    });

    it('identical hints are delivered once, whatever their key order', async () => {
      const queue = await make();
      const { handler, state } = recorder();
      const reordered = {
        at: '2030-01-01T00:00:00Z',
        by: 'alice',
        label: 'x',
        kind: 'label-removed',
      };
      await queue.enqueue(request(1, [hint('x')]));
      await queue.enqueue(request(1, [reordered as Hint, hint('y')]));
      await queue.enqueue(request(1, [hint('x')]));
      queue.start(handler);
      await queue.idle();
      expect(state.runs).toHaveLength(1);
      expect(labels(state.runs[0]!)).toEqual(['x', 'y']);
    });

    it('different issues run in parallel', async () => {
      const { logger, entries } = memoryLogger();
      const queue = await make({ logger });
      const secondStarted = deferred();
      const { handler, state } = recorder(async (request) => {
        if (request.key.number === 1) {
          // Finishes only if issue 2 starts while issue 1 is still running.
          await Promise.race([
            secondStarted.promise,
            sleep(3000).then(() => {
              throw new Error('issue 2 did not start while issue 1 ran');
            }),
          ]);
        } else {
          secondStarted.resolve();
        }
      });
      queue.start(handler);
      await queue.enqueue(request(1));
      await waitFor(() => state.runs.length === 1);
      await queue.enqueue(request(2));
      await queue.idle();
      expect(state.maxActive).toBe(2);
      expect(state.runs).toHaveLength(2);
      expect(entries).toEqual([]);
    });

    it('keeps to the concurrency limit across issues', async () => {
      const queue = await make({ concurrency: 2 });
      const { handler, state } = recorder(() => sleep(20));
      queue.start(handler);
      // Two installations: one alone may hold only its share (half) of the slots.
      for (let number = 1; number <= 6; number++) {
        await queue.enqueue(requestIn(number % 2 === 0 ? 7 : 8, number));
      }
      await queue.idle();
      expect(state.runs).toHaveLength(6);
      expect(state.maxActive).toBe(2);
    });

    it('a busy installation holds at most its share of the slots; another’s request starts at once', async () => {
      const queue = await make({ concurrency: 4 });
      const gate = deferred();
      const { handler, state } = recorder(async (request) => {
        if (request.key.installationId === 7) await gate.promise;
      });
      queue.start(handler);
      // Installation 7's backlog of hundreds, every run of it held up (a throttled installation).
      for (let number = 1; number <= 300; number++) await queue.enqueue(request(number));
      await waitFor(() => state.runs.length === 2);
      await queue.enqueue(requestIn(8, 1, 'the other installation'));
      // Times out when the other installation has to wait for the backlog.
      const otherStarted = await waitFor(() =>
        state.runs.some((run) => run.reason === 'the other installation'),
      ).then(
        () => true,
        () => false,
      );
      const busy = state.runs.filter((run) => run.issue.startsWith('7/'));
      gate.resolve();
      expect(otherStarted).toBe(true);
      expect(busy).toHaveLength(2);
      await queue.idle();
      expect(state.runs).toHaveLength(301);
      expect(state.maxPerIssue).toBe(1);
    });

    it('installations take turns: a second one’s backlog runs beside the first one’s', async () => {
      const queue = await make({ concurrency: 2, perInstallation: 1 });
      const { handler, state } = recorder(() => sleep(2));
      for (let number = 1; number <= 10; number++) await queue.enqueue(request(number));
      for (let number = 1; number <= 3; number++) await queue.enqueue(requestIn(8, number, 'b'));
      queue.start(handler);
      await queue.idle();
      // The three of installation 8 do not wait for the ten of installation 7 queued before.
      const order = state.runs.map((run) => run.reason);
      expect(order.lastIndexOf('b')).toBeLessThan(8);
      expect(state.runs).toHaveLength(13);
    });

    it('retries a failing run with backoff, keeping its hints and those that arrived meanwhile', async () => {
      const { logger, entries } = memoryLogger();
      const queue = await make({ baseDelayMs: 60, maxAttempts: 5, logger });
      const { handler, state } = recorder(async () => {
        if (state.runs.length === 1) {
          await queue.enqueue(request(1, [hint('during')], 'during'));
        }
        if (state.runs.length <= 2) throw new Error(`boom ${state.runs.length}`);
      });
      queue.start(handler);
      await queue.enqueue(request(1, [hint('first')], 'first'));
      await queue.idle();

      expect(state.runs).toHaveLength(3);
      expect(labels(state.runs[0]!)).toEqual(['first']);
      expect(labels(state.runs[1]!)).toEqual(['first', 'during']);
      expect(labels(state.runs[2]!)).toEqual(['first', 'during']);
      const [first, second, third] = state.runs.map((run) => run.startedAt);
      // Exponential: the second delay doubles the first (timer slack allowed).
      expect(second! - first!).toBeGreaterThanOrEqual(55);
      expect(third! - second!).toBeGreaterThanOrEqual(115);
      expect(entries.filter((entry) => entry.level === 'warn').length).toBeGreaterThanOrEqual(2);
      expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });

    it('logs and drops a request that fails on every attempt; the issue still runs later', async () => {
      const { logger, entries } = memoryLogger();
      const queue = await make({ baseDelayMs: 10, maxAttempts: 3, logger });
      const { handler, state } = recorder(async (request) => {
        if (request.hints.some((h) => h.kind === 'label-removed' && h.label === 'poison')) {
          throw new Error('always fails');
        }
      });
      queue.start(handler);
      await queue.enqueue(request(1, [hint('poison')], 'poison'));
      await queue.idle();
      expect(state.runs).toHaveLength(3);
      const errors = entries.filter((entry) => entry.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]!.meta).toMatchObject({ issue: issueKeyString(issue(1)) });

      await queue.enqueue(request(1, [hint('fresh')], 'fresh'));
      await queue.idle();
      expect(state.runs).toHaveLength(4);
      expect(labels(state.runs[3]!)).toEqual(['fresh']);
    });

    it('a rate-limited run is retried no sooner than GitHub asked; its installation waits, another does not', async () => {
      const { logger, entries } = memoryLogger();
      const queue = await make({ baseDelayMs: 10, logger });
      const { handler, state } = recorder(async (_request, run) => {
        if (state.runs.indexOf(run) === 0) {
          // What src/github/octokit.ts makes of a 429 with `retry-after`, wrapped as the
          // reconcile wraps a failed thread read.
          const limited = Object.assign(new Error('rate limited'), { retryAfterMs: 400 });
          throw new Error('thread unverifiable', { cause: limited });
        }
      });
      queue.start(handler);
      await queue.enqueue(request(1, [hint('limited')], 'limited'));
      await waitFor(() => entries.some((entry) => 'waitMs' in entry.meta));
      await queue.enqueue(request(2, [], 'same installation'));
      await queue.enqueue(requestIn(8, 1, 'other installation'));
      await queue.idle();

      const reasons = state.runs.map((run) => run.reason);
      expect(reasons).toHaveLength(4);
      expect(reasons[1]).toBe('other installation');
      const startOf = (i: number) => state.runs[i]!.startedAt - state.runs[0]!.startedAt;
      // The retry and the installation's other issue, both after the wait (timer slack allowed).
      expect(startOf(2)).toBeGreaterThanOrEqual(395);
      expect(startOf(3)).toBeGreaterThanOrEqual(395);
      expect(reasons.slice(2).sort()).toEqual(['limited', 'same installation']);
      expect(entries).toContainEqual(
        expect.objectContaining({ level: 'warn', meta: { installationId: 7, waitMs: 400 } }),
      );
    });

    it('a request that fails on every attempt goes to onExhausted once, with its hints', async () => {
      const { logger, entries } = memoryLogger();
      const queue = await make({ baseDelayMs: 5, maxAttempts: 3, logger });
      const handed: Array<{ request: ReconcileRequest; attempts: number; error: unknown }> = [];
      const { handler, state } = recorder(async () => {
        throw new Error('GitHub is down');
      });
      queue.start(handler, {
        onExhausted: async (request, error, attempts) => {
          handed.push({ request, attempts, error });
        },
      });
      await queue.enqueue(request(1, [hint('kept')], 'kept'));
      await queue.idle();

      expect(state.runs).toHaveLength(3);
      expect(handed).toHaveLength(1);
      expect(handed[0]).toMatchObject({ attempts: 3, request: { key: issue(1), reason: 'kept' } });
      expect(handed[0]!.request.hints).toEqual([hint('kept')]);
      expect(String(handed[0]!.error)).toMatch(/GitHub is down/);
      expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });

    it('a request onExhausted cannot take is logged as dropped', async () => {
      const { logger, entries } = memoryLogger();
      const queue = await make({ baseDelayMs: 5, maxAttempts: 1, logger });
      queue.start(
        async () => {
          throw new Error('GitHub is down');
        },
        {
          onExhausted: async () => {
            throw new Error('Redis is down too');
          },
        },
      );
      await queue.enqueue(request(1));
      await queue.idle();
      const errors = entries.filter((entry) => entry.level === 'error').map((e) => e.message);
      expect(errors).toEqual([
        'work queue: onExhausted failed',
        'reconcile failed on every attempt; request dropped',
      ]);
    });

    it('close() waits for running handlers', async () => {
      const queue = await make();
      const gate = deferred();
      let finished = false;
      const { handler, state } = recorder(async () => {
        await gate.promise;
        finished = true;
      });
      queue.start(handler);
      await queue.enqueue(request(1));
      await waitFor(() => state.runs.length === 1);
      const closing = queue.close();
      setTimeout(gate.resolve, 30);
      await closing;
      expect(finished).toBe(true);
      await expect(queue.enqueue(request(2))).rejects.toThrow(/closed/);
    });
  });
}
