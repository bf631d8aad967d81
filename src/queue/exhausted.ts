import { issueKeyString } from '../keys.js';
import type { QueueHooks, QueueLogger, ReconcileRequest } from './queue.js';

/**
 * Hands a request that failed on every attempt to `onExhausted`, the same in both queues; it
 * is logged as dropped when there is none or it throws. `dropped` adds fields to that log.
 */
export async function handOverExhausted(
  hooks: QueueHooks,
  logger: QueueLogger,
  request: ReconcileRequest,
  error: unknown,
  attempts: number,
  dropped: object = {},
): Promise<void> {
  const issue = issueKeyString(request.key);
  if (hooks.onExhausted) {
    try {
      await hooks.onExhausted(request, error, attempts);
      return;
    } catch (hookError) {
      logger.error({ issue, err: hookError }, 'work queue: onExhausted failed');
    }
  }
  logger.error(
    { issue, attempts, err: error, ...dropped },
    'reconcile failed on every attempt; request dropped',
  );
}
