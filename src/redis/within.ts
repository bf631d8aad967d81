/** What {@link within} rejects with when the work did not settle in time. */
class TooSlowError extends Error {
  override readonly name = 'TooSlowError';
}

/**
 * `work`, or a {@link TooSlowError} after `ms`: a Redis that is connected but does not answer
 * (paused, a stalled proxy) must not hold a caller for the connection's whole command timeout
 * when a local answer will do. `late` gets the value should the work succeed after all (to
 * undo what it took).
 */
export function within<T>(work: Promise<T>, ms: number, late?: (value: T) => void): Promise<T> {
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new TooSlowError(`Redis did not answer within ${ms} ms`));
    }, ms);
    timer.unref();
  });
  void work.then(
    (value) => {
      if (timedOut) late?.(value);
    },
    () => {},
  );
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
