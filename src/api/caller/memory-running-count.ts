import type { RunningCount } from './running-count.js';

/**
 * At most `max` calls of a key at once, counted in this process. A key is kept only while it
 * has a call running, so the table is as large as the calls in flight, never more.
 */
export function memoryRunningCount(max: number): RunningCount {
  const running = new Map<string, number>();
  const enterNow = (key: string): (() => void) | null => {
    const count = running.get(key) ?? 0;
    if (count >= max) return null;
    running.set(key, count + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (running.get(key) ?? 1) - 1;
      if (now <= 0) running.delete(key);
      else running.set(key, now);
    };
  };
  return { enter: async (key) => enterNow(key) };
}
