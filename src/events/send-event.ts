import type { ClaimEvent } from './claim-event.js';
import { signEvent } from './sign-event.js';

/** How long a receiver may take to answer before the attempt counts as failed. */
const EVENT_TIMEOUT_MS = 10_000;

/** Where events go: `CLAIMS_EVENTS_URL` and `CLAIMS_EVENTS_SECRET`. */
export interface EventTarget {
  readonly url: string;
  readonly secret: string;
}

/** A receiver's refusal or silence; the attempt is retried. Never carries the secret. */
export class EventNotDeliveredError extends Error {
  readonly status: number | undefined;

  constructor(message: string, status: number | undefined, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EventNotDeliveredError';
    this.status = status;
  }
}

/**
 * POSTs one event (docs/protocol.md §13) with its type, id and signature headers. Resolves on
 * a 2xx answer; throws {@link EventNotDeliveredError} on any other answer, or none within
 * {@link EVENT_TIMEOUT_MS}.
 */
export async function sendEvent(target: EventTarget, event: ClaimEvent): Promise<void> {
  const body = JSON.stringify(event);
  let response: Response;
  try {
    response = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'claim-warden',
        'x-claims-event': event.type,
        'x-claims-delivery': event.id,
        'x-claims-signature-256': signEvent(target.secret, body),
      },
      body,
      signal: AbortSignal.timeout(EVENT_TIMEOUT_MS),
    });
  } catch (error) {
    throw new EventNotDeliveredError('the events receiver did not answer', undefined, {
      cause: error,
    });
  }
  // Read to the end so the connection is reused; the text itself is not needed.
  await response.arrayBuffer().catch(() => undefined);
  if (response.status < 200 || response.status >= 300) {
    throw new EventNotDeliveredError(
      `the events receiver answered ${response.status}`,
      response.status,
    );
  }
}
