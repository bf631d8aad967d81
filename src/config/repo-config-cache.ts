import type { RepoConfigResult } from './repo-config.js';

/**
 * Caches each repository's config result for `ttlMs`, so the hot path does not fetch
 * claims.yml on every event. Invalid results are cached too, so a broken file is not fetched
 * again in a loop; unreadable ones are not, so the retry really retries. Concurrent loads of
 * one repository share one fetch.
 */
export class RepoConfigCache {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { result: RepoConfigResult; expires: number }>();
  readonly #pending = new Map<string, Promise<RepoConfigResult>>();

  constructor(options: { ttlMs: number; now?: () => number; maxEntries?: number }) {
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** The cached result for the repository, or the result of `load()` (then cached). */
  async get(
    where: { owner: string; repo: string },
    load: () => Promise<RepoConfigResult>,
  ): Promise<RepoConfigResult> {
    // GitHub owner and repository names are case-insensitive.
    const key = `${where.owner}/${where.repo}`.toLowerCase();
    const entry = this.#entries.get(key);
    if (entry && entry.expires > this.#now()) return entry.result;
    this.#entries.delete(key);

    const pending = this.#pending.get(key);
    if (pending) return pending;
    const loading = load()
      .then((result) => {
        if (result.kind !== 'unreadable' && this.#ttlMs > 0) this.#store(key, result);
        return result;
      })
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, loading);
    return loading;
  }

  /** Forgets one repository's config, e.g. after a push that changed it. */
  invalidate(where: { owner: string; repo: string }): void {
    this.#entries.delete(`${where.owner}/${where.repo}`.toLowerCase());
  }

  #store(key: string, result: RepoConfigResult): void {
    // Bounded: drop the oldest entry (Map keeps insertion order) rather than grow without end
    // for an organisation with many repositories.
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { result, expires: this.#now() + this.#ttlMs });
  }
}
