/*
 * GitHub asks integrations to wait at least one second between requests that create content
 * ("Best practices for using the REST API": avoid concurrent requests, pause between
 * mutative requests) or it answers with secondary rate limits. @octokit/plugin-throttling
 * paces them with Bottleneck groups of its own, created once per process with fixed spacings
 * (1 s between writes, 3 s between writes that notify). It reads the groups it schedules on
 * from its `throttle.write` and `throttle.notifications` options, and calls nothing on them
 * but `key(id).schedule(options, job)`; passing a WritePacing there keeps the plugin's
 * behaviour while the spacing and the clock become ours to choose (tests run on less).
 */

import { settingDefault } from '../config/settings.js';

/** The clock a pacing waits on; tests pass one they drive or record. */
export interface PacingClock {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  /** Resolves after `ms`. */
  wait(ms: number): Promise<void>;
}

/** How far apart writes start, per installation (docs/protocol.md §6). */
interface WritePacingOptions {
  /** Between any two writes of one installation (default `CLAIMS_WRITE_PACING_MS`'s: GitHub's one second). */
  readonly writeMs?: number;
  /** Between two writes that notify people, such as a new comment (default 3 × writeMs). */
  readonly notifyingWriteMs?: number;
  /** Default: real time. */
  readonly clock?: PacingClock;
}

/** One schedule per throttle key, as the throttling plugin uses a Bottleneck group. */
export interface PacedGroup {
  key(id: string): PacedKey;
}

/** The schedule of one key: jobs start one at a time, at least the spacing apart. */
interface PacedKey {
  schedule<T>(options: { priority?: number }, job: () => T | Promise<T>): Promise<T>;
}

/** The two schedules the throttling plugin takes as `throttle.write` and `.notifications`. */
export interface WritePacing {
  readonly write: PacedGroup;
  readonly notifications: PacedGroup;
}

/** Real time: a monotonic clock and timers. */
export const REAL_TIME: PacingClock = {
  now: () => performance.now(),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Write pacing for installation octokits: a write waits until `writeMs` after the previous
 * write of its installation started (and a notifying one `notifyingWriteMs` after the
 * previous notifying one); installations never wait on each other.
 */
export function writePacing(options: WritePacingOptions = {}): WritePacing {
  const writeMs = options.writeMs ?? settingDefault('CLAIMS_WRITE_PACING_MS');
  const clock = options.clock ?? REAL_TIME;
  return {
    write: pacedGroup(writeMs, clock),
    notifications: pacedGroup(options.notifyingWriteMs ?? 3 * writeMs, clock),
  };
}

function pacedGroup(spacingMs: number, clock: PacingClock): PacedGroup {
  const keys = new Map<string, PacedKey>();
  return {
    key(id) {
      let key = keys.get(id);
      if (!key) {
        key = pacedKey(spacingMs, clock);
        keys.set(id, key);
      }
      return key;
    },
  };
}

interface Waiting {
  readonly priority: number;
  readonly start: () => void;
}

// Bottleneck's default priority; the plugin schedules a retried request with priority 0, so
// it goes ahead of first attempts, as there.
const DEFAULT_PRIORITY = 5;

function pacedKey(spacingMs: number, clock: PacingClock): PacedKey {
  const waiting: Waiting[] = [];
  let nextAt = Number.NEGATIVE_INFINITY;
  let draining = false;

  const drain = async () => {
    if (draining) return;
    draining = true;
    try {
      while (waiting.length > 0) {
        const delay = nextAt - clock.now();
        if (delay > 0) await clock.wait(delay);
        const next = waiting.shift();
        nextAt = clock.now() + spacingMs;
        next?.start();
      }
    } finally {
      draining = false;
    }
  };

  return {
    schedule(options, job) {
      return new Promise((resolve, reject) => {
        const priority = options.priority ?? DEFAULT_PRIORITY;
        let at = waiting.length;
        while (at > 0 && waiting[at - 1]!.priority > priority) at--;
        waiting.splice(at, 0, {
          priority,
          start: () => {
            try {
              resolve(job());
            } catch (error) {
              reject(error);
            }
          },
        });
        void drain();
      });
    },
  };
}
