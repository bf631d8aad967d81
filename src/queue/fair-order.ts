/**
 * The share of a queue's concurrency one installation may hold when others wait: half, so a
 * burst in one installation always leaves slots for the next one's work to start at once.
 */
export function installationShare(concurrency: number): number {
  return Math.max(1, Math.ceil(concurrency / 2));
}

/**
 * The embedded queue's order of ready issues, fair across installations (docs/protocol.md §6:
 * writes of different installations never wait on each other). Installations take turns, one
 * issue each, oldest first within one; an installation running `cap` issues sits its turns
 * out. A burst of hundreds in one installation therefore never holds every slot, and another
 * installation's work starts as soon as it is ready.
 */
export class FairOrder {
  /** Ready issues per installation, oldest first; the map's order is the order of turns. */
  readonly #ready = new Map<number, Set<string>>();
  readonly #running = new Map<number, number>();
  readonly #cap: number;

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** Issues ready to start. */
  get size(): number {
    let size = 0;
    for (const ids of this.#ready.values()) size += ids.size;
    return size;
  }

  /** Marks an issue ready; one already ready keeps its place. */
  add(installationId: number, id: string): void {
    let ids = this.#ready.get(installationId);
    if (ids === undefined) {
      ids = new Set();
      this.#ready.set(installationId, ids);
    }
    ids.add(id);
  }

  /**
   * Takes the next issue to start, counting it as running: the oldest ready issue of the first
   * installation in turn that is under its cap and not `held` (waiting out a rate limit).
   * That installation's turn then goes to the back. Undefined when no issue may start.
   */
  take(held: (installationId: number) => boolean = () => false): string | undefined {
    for (const [installationId, ids] of this.#ready) {
      if (this.running(installationId) >= this.#cap || held(installationId)) continue;
      const id = ids.values().next().value!;
      ids.delete(id);
      this.#ready.delete(installationId);
      if (ids.size > 0) this.#ready.set(installationId, ids);
      this.#running.set(installationId, this.running(installationId) + 1);
      return id;
    }
    return undefined;
  }

  /** Counts the end of a run that {@link take} started. */
  finished(installationId: number): void {
    const left = this.running(installationId) - 1;
    if (left > 0) this.#running.set(installationId, left);
    else this.#running.delete(installationId);
  }

  /** Forgets every ready issue (close). Runs still count until they finish. */
  clear(): void {
    this.#ready.clear();
  }

  private running(installationId: number): number {
    return this.#running.get(installationId) ?? 0;
  }
}
