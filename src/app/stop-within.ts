/** How a bounded stop ended. */
type StopOutcome = 'stopped' | 'timed out' | { readonly failed: unknown };

/**
 * Runs `stop` and resolves when it ends or after `ms`, whichever comes first: a graceful stop
 * that waits on a Redis that stopped answering (paused, a dead network path) must not keep
 * the process past its orchestrator's grace period, where it is killed without its last log
 * line (docs/replicas.md, "Stopping and failing replicas").
 */
export async function stopWithin(stop: () => Promise<void>, ms: number): Promise<StopOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<StopOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), ms);
  });
  try {
    return await Promise.race([
      stop().then(
        (): StopOutcome => 'stopped',
        (failed: unknown): StopOutcome => ({ failed }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
