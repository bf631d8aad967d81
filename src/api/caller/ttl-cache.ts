/**
 * A small bounded map whose entries expire: the API keeps the answers of `GET /user`,
 * permissions and visibility for at most a few minutes (docs/protocol.md §8, §9), per replica.
 * Losing it costs GitHub calls, never correctness.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();
  readonly #pending = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached value, or the value of `load()` (cached when it resolves). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const entry = this.#entries.get(key);
    if (entry && entry.expires > this.now()) return entry.value;
    this.#entries.delete(key);
    const pending = this.#pending.get(key);
    if (pending) return pending;
    const loading = load()
      .then((value) => {
        this.#set(key, value);
        return value;
      })
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, loading);
    return loading;
  }

  /** The cached value, if one is live; asks nothing. */
  peek(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expires > this.now()) return entry.value;
    return undefined;
  }

  /** Keeps `value` for the cache's lifetime. */
  set(key: string, value: V): void {
    this.#set(key, value);
  }

  #set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expires: this.now() + this.ttlMs });
  }
}
