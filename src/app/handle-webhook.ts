import type { Logger } from 'pino';
import type { GuardEvent } from '../guard/guard-event.js';
import type { GuardWork } from '../guard/guard-work.js';
import type { IssueKey } from '../keys.js';
import type { WorkQueue } from '../queue/queue.js';
import type { Store } from '../store/store.js';
import type { DeliveryRecorder } from './deliveries.js';
import { DeliveryNotQueuedError } from './delivery-not-queued-error.js';
import { type EventRoute, routeEvent } from './route-event.js';

/** One delivery as the intake hands it to the app. */
interface WebhookEvent {
  /** The delivery id (`x-github-delivery`). */
  readonly id: string;
  /** The event name (`x-github-event`). */
  readonly name: string;
  readonly payload: unknown;
}

/** What handleWebhook needs; each piece is wired once by webhookIntake (webhook-intake.ts). */
export interface WebhookDeps {
  readonly appLogin: string;
  readonly now: () => Date;
  readonly store: Store;
  readonly queue: WorkQueue;
  readonly deliveries: DeliveryRecorder;
  readonly log: Logger;
  /**
   * Whether a reconcile route with a `label`, a `bot` or `people` concerns claims (the
   * repository's status labels, its trustedBots, people's claims and their pinned label): a
   * cached config read. Not asked about other routes: they concern claims.
   */
  concernsClaims(route: EventRoute & { kind: 'reconcile' }): Promise<boolean>;
  /** Drops an issue from the holder and deadline indexes. */
  forget(key: IssueKey): Promise<void>;
  /** Starts a resync, detached: it may outlast GitHub's 10 seconds. */
  resync(installationId: number, repos?: readonly string[]): void;
  /** Drops what the app keeps for an installation (the app was uninstalled or suspended). */
  uninstalled(installationId: number): void;
  /** The work of a `pull_request` or `push` delivery, from the store's indexes (§11). */
  guardWork(event: GuardEvent): Promise<GuardWork>;
  /** A heartbeat of the holder was left to the sweep (the open-issue index moves its claim). */
  deferredHeartbeat?(key: IssueKey, payload: unknown): Promise<void>;
}

/** What the app did with one delivery: counted once in `claims_webhooks_total`. */
interface WebhookResult {
  /** `name.action`, the metric's `event` label. */
  readonly event: string;
  readonly result:
    | 'malformed'
    | 'ignored'
    | 'deferred'
    | 'duplicate'
    | 'failed'
    | Exclude<EventRoute['kind'], 'ignore' | 'malformed'>;
  /** Set with `failed`: thrown to the intake, which answers 503 so GitHub can redeliver. */
  readonly error?: DeliveryNotQueuedError;
}

/**
 * The webhook path, as a short pipeline: route (pure), filter (a cached config read at most),
 * record the delivery id, queue the work, keep the id. Never throws: a delivery that could
 * not be queued comes back as `failed` with the error for the intake.
 */
export async function handleWebhook(
  deps: WebhookDeps,
  delivery: WebhookEvent,
): Promise<WebhookResult> {
  const { log } = deps;
  const route = routeEvent(delivery as Parameters<typeof routeEvent>[0], deps.appLogin, deps.now());
  const action = (delivery.payload as { action?: unknown } | null)?.action;
  const event = eventLabel(delivery.name, action);
  const id = delivery.id;
  if (route.kind === 'malformed') {
    log.warn({ event, delivery: id, problem: route.problem }, 'malformed webhook payload ignored');
    return { event, result: 'malformed' };
  }
  if (route.kind === 'ignore') {
    log.debug({ event, why: route.why, delivery: id }, 'event ignored');
    return { event, result: 'ignored' };
  }
  // Before the delivery is recorded: an error here leaves nothing to undo. Most routes carry
  // neither a label nor a bot, and skip the asynchronous call.
  if (
    route.kind === 'reconcile' &&
    (route.label !== undefined || route.bot !== undefined || route.people) &&
    !(await deps.concernsClaims(route))
  ) {
    return { event, result: 'ignored' };
  }
  // docs/protocol.md §11: answered from the indexes; nothing to do costs no GitHub call.
  let guard: GuardWork | undefined;
  if (route.kind === 'guard') {
    try {
      guard = await guardAndHosted(deps, route);
    } catch (error) {
      log.error({ err: error, event, delivery: id }, 'delivery not weighed: answered 503');
      return { event, result: 'failed', error: new DeliveryNotQueuedError(event, id, error) };
    }
    if (guard.requests.length === 0) {
      log.debug({ event, delivery: id }, 'nothing for the guard to do');
      return { event, result: 'ignored' };
    }
  }
  // A heartbeat of the holder changes nothing now; the sweep re-reads the thread at the
  // indexed deadline and moves it. This saves two reads per heartbeat (docs/api-budget.md).
  if (route.kind === 'reconcile' && route.heartbeatOf !== undefined) {
    const holder = await deps.store.holderOf(route.request.key).catch(() => null);
    if (holder === route.heartbeatOf) {
      await deps.deferredHeartbeat?.(route.request.key, delivery.payload);
      log.debug(
        { event, delivery: id, commentId: holder },
        'heartbeat of the holder: left to the sweep',
      );
      return { event, result: 'deferred' };
    }
  }
  // docs/protocol.md §5: a delivery id seen before is acknowledged and does nothing. A store
  // error answers 503, so the delivery shows as failed on GitHub and can be redelivered.
  let fresh: boolean;
  try {
    fresh = await deps.deliveries.begin(id);
  } catch (error) {
    // The record may have landed with its reply lost: undo it (or let it expire).
    void deps.deliveries.abort(id);
    log.error({ err: error, event, delivery: id }, 'delivery not recorded: answered 503');
    return { event, result: 'failed', error: new DeliveryNotQueuedError(event, id, error) };
  }
  if (!fresh) return { event, result: 'duplicate' };
  try {
    switch (route.kind) {
      case 'reconcile':
        await deps.queue.enqueue(route.request);
        if (route.forget) await deps.forget(route.forget);
        break;
      case 'forget':
        await deps.forget(route.key);
        break;
      case 'resync':
        deps.resync(route.installationId, route.repos);
        break;
      case 'uninstalled':
        deps.uninstalled(route.installationId);
        break;
      case 'guard':
        for (const request of guard?.requests ?? []) await deps.queue.enqueue(request);
        break;
    }
  } catch (error) {
    await deps.deliveries.abort(id);
    log.error({ err: error, event, delivery: id }, 'delivery not queued: answered 503');
    return { event, result: 'failed', error: new DeliveryNotQueuedError(event, id, error) };
  }
  await deps.deliveries.commit(id);
  return { event, result: route.kind };
}

/**
 * The guard's work of a pull request or push, plus the reconciles of the issues a hosted
 * agent's pull request closes (docs/protocol.md §18) when the repository lists the bot.
 */
async function guardAndHosted(
  deps: WebhookDeps,
  route: EventRoute & { kind: 'guard' },
): Promise<GuardWork> {
  const work = route.event ? await deps.guardWork(route.event) : { requests: [] };
  const hosted = route.hosted;
  const first = hosted?.requests[0];
  if (!hosted || !first) return work;
  const concerned = await deps.concernsClaims({
    kind: 'reconcile',
    request: first,
    hosted: hosted.login,
  });
  return concerned ? { ...work, requests: [...work.requests, ...hosted.requests] } : work;
}

/** `name.action`, or the bare name for events without an action (`push`, not `push.`). */
function eventLabel(name: string, action: unknown): string {
  return typeof action === 'string' && action !== '' ? `${name}.${action}` : name;
}
