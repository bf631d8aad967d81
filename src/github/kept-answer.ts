import type { ReadCache } from './conditional.js';

/**
 * How long an answer about an account (its role on a repository, its membership of an
 * organisation) is kept: short, as the claims API keeps permissions (docs/protocol.md §8: at
 * most 5 minutes), so a role taken away stops counting within minutes.
 */
export const ACCOUNT_ANSWER_TTL_MS = 5 * 60_000;

/** Marks a kept answer that is no conditional read's (it has no ETag to send). */
const NO_ETAG = '-';

/**
 * The answer kept under `name` in the installation's read cache (shared by every replica),
 * or `load()`'s, kept for `ttlMs`. Only definite answers reach here: `load` throws on
 * anything else, and nothing is kept then. Losing a kept answer costs one call, never
 * correctness.
 */
export async function keptAnswer<T>(
  cache: ReadCache,
  name: string,
  ttlMs: number,
  load: () => Promise<T>,
): Promise<T> {
  const kept = await cache.store.cachedRead(cache.scope, name);
  if (kept?.etag === NO_ETAG) return JSON.parse(kept.value) as T;
  const value = await load();
  await cache.store.setCachedRead(
    cache.scope,
    name,
    { etag: NO_ETAG, value: JSON.stringify(value) },
    ttlMs,
  );
  return value;
}
