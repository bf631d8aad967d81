/**
 * Webhook deliveries out of the GitHub fake: signed like GitHub's, sent one at a time in
 * order, recorded, and optionally held (paused) or captured instead of sent so a test can
 * reorder, duplicate or drop them itself.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { WebhookEvent } from './payloads.js';

/** Where deliveries go. `capture: true` records them without sending. */
export interface WebhookTarget {
  readonly url?: string;
  readonly secret?: string;
  readonly capture?: boolean;
}

/** One delivery the fake produced, with what became of it. */
export interface WebhookDelivery {
  /** `X-GitHub-Delivery`: a fresh uuid, so each delivery is new to the receiver. */
  readonly id: string;
  readonly event: string;
  readonly action: string;
  readonly payload: Record<string, unknown>;
  /** The exact JSON text sent (and signed). */
  readonly body: string;
  /** `held` while paused; `captured` in capture mode; `pending` until the POST completes. */
  state: 'held' | 'captured' | 'pending' | 'sent' | 'failed';
  /** The receiver's HTTP status, once sent. */
  status?: number;
  /** Why sending failed: network error or non-2xx status. */
  error?: string;
}

/**
 * One attempt to deliver a webhook, as GitHub lists it under `GET /app/hook/deliveries`: every
 * attempt (the first and each redelivery) has an id of its own and the delivery's guid.
 */
export interface HookAttempt {
  /** GitHub's delivery id: one per attempt, growing with time. */
  readonly id: number;
  /** `X-GitHub-Delivery`, the same on every attempt of one delivery. */
  readonly guid: string;
  readonly event: string;
  readonly action: string;
  /** When the attempt was made (ISO, the fake's clock). */
  readonly deliveredAt: string;
  /** Whether it was asked for with `POST /app/hook/deliveries/{id}/attempts`. */
  readonly redelivery: boolean;
  /** The receiver's HTTP status; 0 when it could not be reached or did not answer. */
  readonly statusCode: number;
  /** GitHub's words for it: `OK`, `Invalid HTTP Response: 503`, `failed to connect to host`. */
  readonly status: string;
  readonly durationMs: number;
  readonly installationId: number | null;
  readonly repositoryId: number | null;
  /** The delivery it repeats. */
  readonly delivery: WebhookDelivery;
}

/** What `sendWebhook` posts. `payload` is serialised unless a `body` text is given. */
export interface OutgoingWebhook {
  readonly event: string;
  readonly id?: string;
  readonly payload?: unknown;
  readonly body?: string;
}

/** `X-Hub-Signature-256` value for `body`: `sha256=` + hex HMAC-SHA256 with the secret. */
export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Posts one signed delivery with GitHub's headers; resolves with the receiver's answer. */
export async function sendWebhook(
  url: string,
  secret: string,
  webhook: OutgoingWebhook,
  options: { hookId?: number; appId?: number; timeoutMs?: number } = {},
): Promise<{ status: number; body: string }> {
  const body = webhook.body ?? JSON.stringify(webhook.payload);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/fake',
      'x-github-event': webhook.event,
      'x-github-delivery': webhook.id ?? randomUUID(),
      'x-github-hook-id': String(options.hookId ?? 1),
      'x-github-hook-installation-target-type': 'integration',
      'x-github-hook-installation-target-id': String(options.appId ?? 1),
      'x-hub-signature': `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`,
      'x-hub-signature-256': signWebhook(secret, body),
    },
    body,
    // GitHub gives up on a delivery after 10 seconds.
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  return { status: response.status, body: await response.text() };
}

/** Queues deliveries and sends them in order, one at a time. */
export class WebhookOutbox {
  /** Every delivery produced while a target was set, in order. */
  readonly deliveries: WebhookDelivery[] = [];
  /** Every attempt to send one (captured deliveries make none), oldest first. */
  readonly attempts: HookAttempt[] = [];
  private nextAttemptId = 10_000_001;
  private target: WebhookTarget | undefined;
  private paused = false;
  private held: WebhookDelivery[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: {
      appId: number;
      log: (message: string, meta: Record<string, unknown>) => void;
      /** The clock of `deliveredAt` (default: real time). */
      clock?: () => Date;
    },
  ) {}

  /** Sets (or clears, with undefined) where deliveries go. */
  setTarget(target: WebhookTarget | undefined): void {
    if (target && !target.capture && (!target.url || target.secret === undefined)) {
      throw new Error('a webhook target needs url and secret, or capture: true');
    }
    this.target = target;
  }

  /** Records an event and sends it after those before it; no target, no delivery. */
  enqueue(event: WebhookEvent): void {
    const target = this.target;
    if (!target) return;
    const delivery: WebhookDelivery = {
      id: randomUUID(),
      event: event.event,
      action: event.action,
      payload: event.payload,
      body: JSON.stringify(event.payload),
      state: target.capture ? 'captured' : this.paused ? 'held' : 'pending',
    };
    this.deliveries.push(delivery);
    if (delivery.state === 'held') this.held.push(delivery);
    else if (delivery.state === 'pending') this.schedule(delivery, target);
  }

  /** Holds new deliveries until `resume`. */
  pause(): void {
    this.paused = true;
  }

  /** Sends the held deliveries in order, then sends as they come. */
  resume(): void {
    this.paused = false;
    const target = this.target;
    const held = this.held;
    this.held = [];
    for (const delivery of held) {
      if (target && !target.capture) {
        delivery.state = 'pending';
        this.schedule(delivery, target);
      } else {
        delivery.state = 'captured';
      }
    }
  }

  /**
   * Sends a delivery again, as `POST /app/hook/deliveries/{id}/attempts` asks: the same guid
   * and body, to the current target, after the deliveries before it. False when no attempt
   * has the id. Without a target (or in capture mode) the attempt fails as unreachable.
   */
  redeliver(attemptId: number): boolean {
    const attempt = this.attempts.find((a) => a.id === attemptId);
    if (!attempt) return false;
    const target = this.target;
    const delivery = attempt.delivery;
    this.chain = this.chain.then(() => this.send(delivery, target, true));
    return true;
  }

  /** Resolves once every delivery sent so far (and any they caused) has completed. */
  async settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.chain;
      await seen;
    } while (seen !== this.chain);
  }

  private schedule(delivery: WebhookDelivery, target: WebhookTarget): void {
    this.chain = this.chain.then(() => this.send(delivery, target));
  }

  private async send(
    delivery: WebhookDelivery,
    target: WebhookTarget | undefined,
    redelivery = false,
  ): Promise<void> {
    const started = performance.now();
    const deliveredAt = (this.options.clock?.() ?? new Date())
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
    let statusCode = 0;
    try {
      if (!target?.url || target.capture) throw new Error('failed to connect to host');
      const answer = await sendWebhook(
        target.url,
        target.secret ?? '',
        { event: delivery.event, id: delivery.id, body: delivery.body },
        { appId: this.options.appId },
      );
      delivery.status = answer.status;
      statusCode = answer.status;
      if (answer.status >= 200 && answer.status < 300) {
        delivery.state = 'sent';
      } else {
        delivery.state = 'failed';
        delivery.error = `HTTP ${answer.status}: ${answer.body.slice(0, 200)}`;
      }
    } catch (error) {
      delivery.state = 'failed';
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    const ok = delivery.state === 'sent';
    const installation = delivery.payload.installation as { id?: number } | undefined;
    const repository = delivery.payload.repository as { id?: number } | undefined;
    this.attempts.push({
      id: this.nextAttemptId++,
      guid: delivery.id,
      event: delivery.event,
      action: delivery.action,
      deliveredAt,
      redelivery,
      statusCode,
      status: ok
        ? 'OK'
        : statusCode === 0
          ? 'failed to connect to host'
          : `Invalid HTTP Response: ${statusCode}`,
      durationMs: Math.round(performance.now() - started),
      installationId: installation?.id ?? null,
      repositoryId: repository?.id ?? null,
      delivery,
    });
    if (delivery.state === 'failed') {
      this.options.log('fake-github: webhook delivery failed', {
        id: delivery.id,
        event: `${delivery.event}.${delivery.action}`,
        error: delivery.error,
      });
    }
  }
}
