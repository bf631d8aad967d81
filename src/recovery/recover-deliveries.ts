import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import { statusOf } from '../github/errors.js';
import type { Store } from '../store/store.js';
import { HookDelivery } from './hook-delivery.js';
import { nextCheckpoint, pickRedeliveries } from './pick-redeliveries.js';

/** GitHub keeps an app's webhook deliveries for three days; none older can be redelivered. */
const DELIVERY_HISTORY_MS = 3 * 24 * 3_600_000;

/** What a recovery run needs. */
export interface RecoveryDeps {
  readonly store: Store;
  readonly log: Logger;
  readonly now: () => Date;
  /** An octokit authenticated as the app (JWT): the deliveries are the app's. */
  appOctokit(): Promise<ProbotOctokit>;
  /** `CLAIMS_REDELIVER_MAX`: the most deliveries one run asks GitHub to redeliver. */
  readonly max: number;
  /** Whether the app acts on `event.action` (deliveries of other events are not redelivered). */
  subscribed(event: string, action: string | null): boolean;
}

/** What one run did, for logs, metrics and the benchmark. */
export interface RecoveryResult {
  /** Deliveries listed back to the checkpoint. */
  readonly listed: number;
  /** Of those, deliveries of subscribed events that never got a 2xx. */
  readonly found: number;
  /** Redeliveries GitHub accepted. */
  readonly redelivered: number;
  /** Redeliveries GitHub refused or that got no answer (tried again next run). */
  readonly failed: number;
}

/**
 * docs/protocol.md §12: lists the app's webhook deliveries newest first back to the
 * checkpoint (with none, three days), and asks GitHub to redeliver each delivery of a
 * subscribed event that never got a 2xx, oldest first, at most `max`. A redelivery keeps its
 * guid, so one processed meanwhile is acknowledged as a duplicate (the delivery id store).
 * The checkpoint moves past a delivery only once it is handled: a failure of the listing
 * moves nothing, and a delivery left over (capped or refused) is listed again next run.
 */
export async function recoverDeliveries(deps: RecoveryDeps): Promise<RecoveryResult> {
  const octokit = await deps.appOctokit();
  const checkpoint = await deps.store.deliveryCheckpoint();
  const horizon = deps.now().getTime() - DELIVERY_HISTORY_MS;
  const listed: HookDelivery[] = [];
  const pages = octokit.paginate.iterator(octokit.rest.apps.listWebhookDeliveries, {
    per_page: 100,
  });
  listing: for await (const page of pages) {
    for (const raw of page.data) {
      const parsed = HookDelivery.safeParse(raw);
      if (!parsed.success) continue;
      const delivery = parsed.data;
      if (checkpoint !== null && delivery.id <= checkpoint.id) break listing;
      if (Date.parse(delivery.delivered_at) < horizon) break listing;
      listed.push(delivery);
    }
  }

  const { candidates } = pickRedeliveries(listed, deps.subscribed);
  const leftOver = candidates.slice(deps.max);
  let redelivered = 0;
  let failed = 0;
  for (const delivery of candidates.slice(0, deps.max)) {
    try {
      await octokit.rest.apps.redeliverWebhookDelivery({ delivery_id: delivery.id });
      redelivered += 1;
    } catch (err) {
      deps.log.warn(
        { err, status: statusOf(err), delivery: delivery.guid, event: delivery.event },
        'redelivery refused: tried again next run',
      );
      failed += 1;
      leftOver.push(delivery);
    }
  }
  const moved = nextCheckpoint(listed, leftOver);
  if (moved !== null) await deps.store.setDeliveryCheckpoint(moved);
  return {
    listed: listed.length,
    found: candidates.length,
    redelivered,
    failed,
  };
}
