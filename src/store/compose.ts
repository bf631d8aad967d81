/**
 * A base class for a store made of concern pairs (MemoryStore, RedisStore): its instances have
 * every method of `T`, which {@link compose} puts there from the parts, so the store's class
 * writes no line per method and a concern's methods are written once, in its pair.
 */
export function composed<T extends object>(): new () => T {
  return class {} as new () => T;
}

/**
 * Puts every method of each part's own class on `target`, bound to the part: a store's call
 * goes to the one pair that owns it. Left out: `forget` (a part's share of forgetIssue, which
 * the store calls itself), `#private` helpers, fields and inherited methods. A name two parts
 * define throws, at construction: the concern interfaces share none.
 */
export function compose(target: object, parts: readonly object[]): void {
  for (const part of parts) {
    const methods = Object.getPrototypeOf(part) as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(methods)) {
      const method = methods[name];
      if (name === 'constructor' || name === 'forget' || typeof method !== 'function') continue;
      if (Object.hasOwn(target, name)) throw new Error(`two parts of the store define ${name}`);
      // Writable and configurable, as a class's own methods are (tests replace some).
      Object.defineProperty(target, name, {
        value: method.bind(part),
        writable: true,
        configurable: true,
      });
    }
  }
}
