/**
 * The reads of one issue that its readers share (docs/protocol.md §8 "Readers"): a reader
 * joins the read in flight, or takes one finished less than `intervalMs` ago, so however many
 * read an issue the installation reads it at most once per interval (per replica). A write
 * through the API forgets the read, so the next reader sees what the write left; a
 * failed read is shared only by those waiting on it.
 */
export class SharedReads<V> {
  readonly #entries = new Map<string, Flight<V>>();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  /**
   * The shared read of `key`, or `load()`'s. `load` gets `current()`: false once a write has
   * forgotten the read (or a newer one replaced it), so what it found is not the latest.
   */
  read(key: string, load: (current: () => boolean) => Promise<V>): Promise<V> {
    const entry = this.#entries.get(key);
    if (entry && (entry.settledAt === null || this.now() - entry.settledAt < this.intervalMs)) {
      return entry.value;
    }
    this.#prune();
    const flight: Flight<V> = { value: Promise.resolve() as Promise<V>, settledAt: null };
    const current = () => this.#entries.get(key) === flight;
    this.#entries.delete(key);
    this.#entries.set(key, flight);
    flight.value = load(current).then(
      (value) => {
        if (current()) flight.settledAt = this.now();
        return value;
      },
      (error: unknown) => {
        if (current()) this.#entries.delete(key);
        throw error;
      },
    );
    return flight.value;
  }

  /** A write changed the issue: the next reader reads it anew. */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  /** Drops reads past their interval (oldest first), and the oldest beyond `maxEntries`. */
  #prune(): void {
    for (const [key, flight] of this.#entries) {
      const expired = flight.settledAt !== null && this.now() - flight.settledAt >= this.intervalMs;
      if (!expired && this.#entries.size < this.maxEntries) return;
      this.#entries.delete(key);
    }
  }
}

interface Flight<V> {
  value: Promise<V>;
  /** When the read finished; null while it is in flight. */
  settledAt: number | null;
}
