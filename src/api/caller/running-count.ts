/** Counts the calls of each key running at once (docs/protocol.md §8 "Limits"). */
export interface RunningCount {
  /**
   * One more call of `key` runs: resolves the function that ends it (call it once, when the
   * call is answered), or null when `key` already has its most calls running.
   */
  enter(key: string): Promise<(() => void) | null>;
}
