import type { PacingClock } from '../../src/github/write-pacing.js';

/** A wait a {@link ManualClock} holds: until `at`, asked for `ms` at the time. */
export interface HeldWait {
  readonly at: number;
  readonly ms: number;
}

/**
 * A pacing clock that stands still until the test moves it: every wait is recorded and held
 * until `advance` passes its end, so a test sees what was scheduled, and when, without
 * sleeping or reading elapsed time.
 */
export interface ManualClock extends PacingClock {
  /** The waits not over yet, oldest first. */
  readonly held: readonly HeldWait[];
  /** Moves time on by `ms`, ending the waits that are due by then. */
  advance(ms: number): void;
}

/** Starts a {@link ManualClock} at 0. */
export function manualClock(): ManualClock {
  let now = 0;
  const waits: Array<HeldWait & { resolve: () => void }> = [];
  return {
    get held() {
      return waits.map(({ at, ms }) => ({ at, ms }));
    },
    now: () => now,
    wait(ms) {
      return new Promise<void>((resolve) => {
        waits.push({ at: now + ms, ms, resolve });
      });
    },
    advance(ms) {
      now += ms;
      for (const wait of waits.filter((w) => w.at <= now)) {
        waits.splice(waits.indexOf(wait), 1);
        wait.resolve();
      }
    },
  };
}
