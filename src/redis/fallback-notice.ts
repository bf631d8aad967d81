import type { Logger } from 'pino';

/**
 * Logs once when a deployment-wide count falls back to this process's own (Redis did not
 * answer) and once when it is back, not once per call: an outage must not flood the log.
 */
export function fallbackNotice(
  log: Logger,
  what: string,
): { failed(error: unknown): void; answered(): void } {
  let local = false;
  return {
    failed(error) {
      if (local) return;
      local = true;
      log.warn(
        { err: error, what },
        'Redis did not answer: counting in this process until it does (each replica for itself)',
      );
    },
    answered() {
      if (!local) return;
      local = false;
      log.info({ what }, 'Redis answers again: counting for the whole deployment');
    },
  };
}
