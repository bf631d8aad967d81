/**
 * Runs `fn` on every item, at most `limit` at a time, and resolves when all have; rejects with
 * the first failure once the running ones settle (no new one starts after it). The queue's
 * visibility checks go through it (docs/protocol.md §9): one GitHub call per repository, a
 * few at a time, so 300 repositories are never 300 requests at once.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const worker = async () => {
    while (failed === undefined && next < items.length) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed) throw failed.error;
}
