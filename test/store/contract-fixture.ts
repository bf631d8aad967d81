import { afterEach, beforeEach } from 'vitest';
import type { IssueKey } from '../../src/keys.js';
import type { Store } from '../../src/store/store.js';
import { sleep } from '../helpers/redis.js';

/** One store under test; `advance` moves its clock, else expiry tests wait in real time. */
export interface StoreFixture<S = Store> {
  readonly store: S;
  advance?(ms: number): void;
  cleanup(): Promise<void>;
}

/** Makes the store under test, afresh for each test of a contract. */
export type MakeStore<S = Store> = () => Promise<StoreFixture<S>>;

/** A short TTL: real enough for Redis's expiry, short enough to keep the suite fast. */
export const TTL = 80;
/** Comfortably past {@link TTL}, so Redis has expired the key when a test looks again. */
export const PAST_TTL = 160;

/** Issue `number` of acme/widgets in installation 7, or elsewhere with `overrides`. */
export function issue(number: number, overrides: Partial<IssueKey> = {}): IssueKey {
  return { installationId: 7, owner: 'acme', repo: 'widgets', number, ...overrides };
}

const base = Date.parse('2030-01-01T00:00:00Z');
/** `seconds` after 2030-01-01T00:00:00Z. */
export const at = (seconds: number) => new Date(base + seconds * 1000);

/**
 * Makes a store for each test of the enclosing `describe` (handed to `set`) and cleans it up
 * after; resolves the way to let `ms` pass on its clock: its own when it has one, else real
 * time.
 */
export function useStore<S>(make: MakeStore<S>, set: (store: S) => void) {
  let fixture: StoreFixture<S>;
  beforeEach(async () => {
    fixture = await make();
    set(fixture.store);
  });
  afterEach(async () => {
    await fixture.cleanup();
  });
  return async (ms: number): Promise<void> => {
    if (fixture.advance) fixture.advance(ms);
    else await sleep(ms);
  };
}
