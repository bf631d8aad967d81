import { concernsClaims } from '../config/concerns-claims.js';
import { guardWork } from '../guard/guard-work.js';
import type { Intake } from '../intake/intake.js';
import type { IssueKey } from '../keys.js';
import { indexIssuesEvent } from '../read-model/index-events.js';
import { indexHeartbeat } from '../read-model/index-heartbeat.js';
import { recordGone } from '../read-model/record-gone.js';
import { deliveryAttributes } from '../telemetry/delivery-attributes.js';
import { inSpan, ROOT_CONTEXT, SpanKind } from '../tracing/tracing.js';
import { recordDeliveries } from './deliveries.js';
import { handleWebhook, type WebhookDeps } from './handle-webhook.js';
import { SUBSCRIBED_EVENTS } from './route-event.js';
import type { WardenCore } from './warden-core.js';

/** A delivery's span: the trace's root, a server span (the webhook request). */
function webhookSpan(context: Parameters<typeof deliveryAttributes>[0]) {
  return { kind: SpanKind.SERVER, parent: ROOT_CONTEXT, attributes: deliveryAttributes(context) };
}

/** What the webhook intake asks of the app's other jobs. */
interface WebhookJobs {
  /** Starts a resync, detached. */
  resync(installationId: number, repos?: readonly string[]): unknown;
  /** Queues a check of the pull requests an issue's claims flagged. */
  requestPullCheck(key: IssueKey): Promise<void>;
}

/**
 * Subscribes the app to its webhooks (SUBSCRIBED_EVENTS): each delivery becomes queued work
 * (handleWebhook), counted in `claims_webhooks_total`; a delivery that could not be queued is
 * thrown to the intake, which answers 503 so GitHub redelivers it.
 */
export function webhookIntake(intake: Intake, core: WardenCore, jobs: WebhookJobs): void {
  const { store, log, metrics } = core;
  const deps = webhookDeps(core, jobs);
  intake.on([...SUBSCRIBED_EVENTS], (delivery) =>
    // One trace per delivery (docs/operations.md "Traces"), rooted here: the webhook request's
    // server span (no HTTP instrumentation, whose span per request cost more than the rest of
    // the trace). Its reconcile joins it.
    inSpan(`webhook ${delivery.name}`, webhookSpan(delivery), async (span) => {
      // The work queue's index follows every issues event, own echoes too (§9): no API call.
      if (delivery.name === 'issues') await indexIssuesEvent(store, log, delivery.payload);
      const outcome = await handleWebhook(deps, delivery);
      metrics.webhooks.inc({ event: outcome.event, result: outcome.result });
      span?.setAttribute('claims.result', outcome.result);
      if (outcome.error) throw outcome.error;
    }),
  );
  // Deliveries of actions the app does not subscribe to (GitHub sends every action of a
  // subscribed event: pull_request.closed, installation_repositories.removed, …) are answered
  // 200 and counted, so the counter sums to every delivery received.
  const subscribed = new Set<string>(SUBSCRIBED_EVENTS);
  intake.onAny((delivery) => {
    const action = (delivery.payload as { action?: unknown }).action;
    const event = typeof action === 'string' ? `${delivery.name}.${action}` : delivery.name;
    if (!subscribed.has(event)) metrics.webhooks.inc({ event, result: 'unhandled' });
  });
}

/** handleWebhook's dependencies, from the app's. */
function webhookDeps(core: WardenCore, jobs: WebhookJobs): WebhookDeps {
  const { store, queue, log, now, config } = core;
  return {
    appLogin: core.appLogin,
    now,
    store,
    queue,
    deliveries: recordDeliveries(store, log),
    log,
    // issues.deleted / transferred: GitHub said the issue is gone, so everything kept on it
    // goes. The pull requests its claims flagged are checked again first (docs/protocol.md §11).
    forget: (key) => recordGone({ store, requestPullCheck: jobs.requestPullCheck }, key),
    resync: (installationId, repos) => void jobs.resync(installationId, repos),
    uninstalled: (installationId) => core.forget(installationId),
    // The index's claim (the queue's and the board's) follows a deferred heartbeat; a store
    // error only logs.
    async deferredHeartbeat(key, payload) {
      const c = (payload as { comment?: { id: number; body?: string; updated_at: string } })
        .comment;
      if (!c) return;
      const comment = { id: c.id, body: c.body ?? '', updatedAt: new Date(c.updated_at) };
      await indexHeartbeat(store, key, comment).catch((err: unknown) => {
        log.warn({ err, commentId: c.id }, 'heartbeat not recorded in the index');
      });
    },
    // Label events matter only for status labels (and the pinned label of people's claims), a
    // bot's marker only when the bot is in trustedBots, assignments and commands only with
    // people's claims on: each costs a cached config read, never a reconcile.
    async concernsClaims(route) {
      const filter = await config.forFilter(route.request.key);
      // Unreadable: reconcile anyway; it fails closed and retries. Invalid: nothing to write.
      if (filter === 'unknown') return true;
      return filter !== null && concernsClaims(filter, route);
    },
    guardWork: (event) =>
      guardWork(
        {
          store,
          now,
          configFor: (repo) => config.forFilter(repo),
          dropConfig: (repo) => config.invalidate(repo),
        },
        event,
      ),
  };
}
