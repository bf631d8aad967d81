import { createHmac } from 'node:crypto';

/**
 * `X-Claims-Signature-256` of an event body (docs/protocol.md §13): `sha256=` and the hex
 * HMAC-SHA256 of the exact body with `CLAIMS_EVENTS_SECRET`, as GitHub signs its webhooks.
 */
export function signEvent(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
