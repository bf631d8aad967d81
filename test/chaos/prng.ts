/** A seeded source of randomness: the same seed gives the same choices. */
export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight: `[[item, weight], ...]`. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T;
  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[];
}

/** mulberry32: tiny, fast and good enough to schedule a test's faults. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    seed,
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[random.int(items.length)]!;
    },
    weighted: (items) => {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      return items[items.length - 1]![0];
    },
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = random.int(i + 1);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
  return random;
}

/**
 * The seeds of a run: `CHAOS_SEED` (one or a comma-separated list) to replay a failure, else
 * `count` fresh ones.
 */
export function chaosSeeds(count: number, env: NodeJS.ProcessEnv = process.env): number[] {
  const given = env.CHAOS_SEED?.trim();
  if (given) {
    return given.split(',').map((text) => {
      const seed = Number(text.trim());
      if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
        throw new Error(`CHAOS_SEED must be whole numbers in 0..4294967295, got "${text}"`);
      }
      return seed;
    });
  }
  return Array.from({ length: count }, () => Math.floor(Math.random() * 0x100000000));
}
