/**
 * The app's webhook deliveries (`/app/hook/deliveries`, JWT): every attempt the fake's outbox
 * made, newest first, paged with a `cursor` in the `Link` header as GitHub does, and
 * redelivery on request.
 */
import { type Reply, type Route, type RouteContext, route } from './router.js';
import { HttpError } from './state.js';
import type { HookAttempt } from './webhooks.js';

/** What the delivery routes need from the server. */
export interface HookRouteDeps {
  readonly apiUrl: () => string;
  /** Every attempt so far, oldest first. */
  readonly attempts: () => readonly HookAttempt[];
  /** Sends an attempt's delivery again; false when no attempt has the id. */
  readonly redeliver: (attemptId: number) => boolean;
}

/** GitHub's `hook-delivery-item`. */
function item(attempt: HookAttempt): Record<string, unknown> {
  return {
    id: attempt.id,
    guid: attempt.guid,
    delivered_at: attempt.deliveredAt,
    redelivery: attempt.redelivery,
    duration: attempt.durationMs / 1000,
    status: attempt.status,
    status_code: attempt.statusCode,
    event: attempt.event,
    action: attempt.action,
    installation_id: attempt.installationId,
    repository_id: attempt.repositoryId,
    throttled_at: null,
  };
}

/** The cursor GitHub writes for "the page starting after this delivery". */
const cursorOf = (id: number) => `v1_${id}`;

/** The delivery routes of the fake. */
export function hookRoutes(deps: HookRouteDeps): Route[] {
  const find = (ctx: RouteContext): HookAttempt => {
    const attempt = deps.attempts().find((a) => a.id === Number(ctx.params.id));
    if (!attempt) throw new HttpError(404, 'Not Found');
    return attempt;
  };

  return [
    route(
      'GET',
      '/app/hook/deliveries',
      (ctx): Reply => {
        const perPage = Math.min(Math.max(Number(ctx.query.get('per_page')) || 30, 1), 100);
        const cursor = ctx.query.get('cursor');
        const newestFirst = [...deps.attempts()].reverse();
        let start = 0;
        if (cursor !== null) {
          const after = /^v1_(\d+)$/.exec(cursor);
          if (!after) throw new HttpError(422, 'Invalid cursor');
          start = newestFirst.findIndex((a) => a.id < Number(after[1]));
          if (start < 0) start = newestFirst.length;
        }
        const page = newestFirst.slice(start, start + perPage);
        const last = page.at(-1);
        const more = last !== undefined && start + perPage < newestFirst.length;
        const headers: Record<string, string> = {};
        if (more) {
          const params = new URLSearchParams(ctx.query);
          params.set('cursor', cursorOf(last.id));
          headers.link = `<${deps.apiUrl()}${ctx.path}?${params.toString()}>; rel="next"`;
        }
        return { status: 200, body: page.map(item), headers };
      },
      'jwt',
    ),
    route(
      'GET',
      '/app/hook/deliveries/:id',
      (ctx) => {
        const attempt = find(ctx);
        return {
          status: 200,
          body: {
            ...item(attempt),
            url: '',
            request: {
              headers: { 'X-GitHub-Event': attempt.event, 'X-GitHub-Delivery': attempt.guid },
              payload: attempt.delivery.payload,
            },
            response: { headers: {}, payload: null },
          },
        };
      },
      'jwt',
    ),
    route(
      'POST',
      '/app/hook/deliveries/:id/attempts',
      (ctx) => {
        if (!deps.redeliver(Number(ctx.params.id))) throw new HttpError(404, 'Not Found');
        return { status: 202, body: {} };
      },
      'jwt',
    ),
  ];
}
