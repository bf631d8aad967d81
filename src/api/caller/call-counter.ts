/** What counting one call answered: admitted, or how long to wait. */
export type Counted =
  | { readonly admitted: true }
  | {
      readonly admitted: false;
      /** Seconds until the key may call again (at least 1). */
      readonly retryAfterS: number;
      /**
       * True when the key is refused because the table of keys is full of keys still limiting
       * (a flood of new keys), not because the key itself spent its calls.
       */
      readonly crowded?: true;
    };

/** Counts calls per key against a rate (docs/protocol.md §8 "Limits"). */
export interface CallCounter {
  /** Counts one call of `key` when the rate allows it. */
  take(key: string): Promise<Counted>;
}

/** A counter's admission. */
export const ADMITTED: Counted = { admitted: true };
