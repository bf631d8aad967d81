import type { ClaimEvent } from './claim-event.js';
import { signEvent } from './sign-event.js';

/** How long a receiver may take to answer before the attempt counts as failed (§13: 10 s). */
const EVENT_TIMEOUT_MS = 10_000;

/** Where events go: `CLAIMS_EVENTS_URL` and `CLAIMS_EVENTS_SECRET`. */
interface EventTarget {
  readonly url: string;
  readonly secret: string;
}

/** How one attempt may end early. */
interface SendOptions {
  /** Aborts the attempt (the outbox is closing). */
  readonly signal?: AbortSignal;
  /** How long the receiver may take to answer (default and in production 10 s). */
  readonly timeoutMs?: number;
}

/** A receiver's refusal or silence; the attempt is retried. Never carries the secret. */
class EventNotDeliveredError extends Error {
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
 * {@link EVENT_TIMEOUT_MS}. A redirect is not followed: it is a failed attempt like any
 * other non-2xx, so the signed body only ever goes to `CLAIMS_EVENTS_URL`, never to a host,
 * port or scheme (https → http) a receiver names in `location`.
 */
export async function sendEvent(
  target: EventTarget,
  event: ClaimEvent,
  options: SendOptions = {},
): Promise<void> {
  const body = JSON.stringify(event);
  const deadline = AbortSignal.timeout(options.timeoutMs ?? EVENT_TIMEOUT_MS);
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
      redirect: 'manual',
      signal: options.signal ? AbortSignal.any([options.signal, deadline]) : deadline,
    });
  } catch (error) {
    throw new EventNotDeliveredError('the events receiver did not answer', undefined, {
      cause: error,
    });
  }
  await drain(response);
  if (response.status >= 300 && response.status < 400) {
    throw new EventNotDeliveredError(
      `the events receiver answered ${response.status}, a redirect: not followed, the event goes to CLAIMS_EVENTS_URL only`,
      response.status,
    );
  }
  if (response.type === 'opaqueredirect' || response.status < 200 || response.status >= 300) {
    throw new EventNotDeliveredError(
      `the events receiver answered ${response.status}`,
      response.status,
    );
  }
}

/**
 * Reads an answer's body to its end, so the connection is reused, keeping none of it: a
 * receiver's body is never needed, and a large one must not be held in memory. The attempt's
 * deadline still applies (the signal aborts the read).
 */
async function drain(response: Response): Promise<void> {
  try {
    if (response.body) for await (const _ of response.body);
  } catch {
    // An aborted or broken body changes nothing: the status decides.
  }
}
