import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK hands a tool handler: the request's progress token, signal and notifier. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Thrown when the client cancelled the call (`notifications/cancelled`) before it began. */
export class CallCancelled extends Error {
  override readonly name = 'CallCancelled';
}

/**
 * Waits for `work`, telling the client it still runs: a claim waits on GitHub's write pacing
 * (docs/protocol.md §6, about 2 s at p50), so with a `progressToken` the client gets a
 * `notifications/progress` every `everyMs` until the answer. On cancellation the reports stop
 * at once and the SDK sends no result; the API call itself runs to its end, because a claim
 * stopped between its comment and its reconcile would be a half-made claim (§8 "Serialised").
 */
export async function whileWaiting<T>(
  work: Promise<T>,
  extra: ToolExtra,
  everyMs: number,
): Promise<T> {
  const token = extra._meta?.progressToken;
  if (token === undefined || extra.signal.aborted) return work;
  let progress = 0;
  const timer = setInterval(() => {
    if (extra.signal.aborted) return clearInterval(timer);
    progress += 1;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          message: 'waiting on GitHub: the claim is read, written and read back under its lock',
        },
      })
      .catch(() => clearInterval(timer));
  }, everyMs);
  const stop = () => clearInterval(timer);
  extra.signal.addEventListener('abort', stop, { once: true });
  try {
    return await work;
  } finally {
    stop();
    extra.signal.removeEventListener('abort', stop);
  }
}
