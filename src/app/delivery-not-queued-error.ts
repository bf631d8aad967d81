/**
 * Thrown to the intake when a delivery could not be recorded and queued (Redis unreachable):
 * the webhook is answered 503 so GitHub shows it as failed and it can be redelivered.
 */
export class DeliveryNotQueuedError extends Error {
  /** The HTTP status @octokit/webhooks answers with. */
  readonly status = 503;
  readonly event: string;
  readonly deliveryId: string;

  constructor(event: string, deliveryId: string, cause: unknown) {
    super(
      `delivery ${deliveryId} (${event}) was not queued: Redis (store or work queue) did not answer; redeliver it once /health answers 200`,
      { cause },
    );
    this.name = 'DeliveryNotQueuedError';
    this.event = event;
    this.deliveryId = deliveryId;
  }
}
