import type { IncomingMessage, ServerResponse } from 'node:http';
import { type EmitterWebhookEventName, Webhooks } from '@octokit/webhooks';
import type { Logger } from 'pino';

/**
 * The app's webhook intake: handlers by event, as Probot's `app.on` registers them, run on
 * `{ id, name, payload }` alone. Probot's middleware verified each signature a second time
 * and built an authenticated Octokit for every delivery (its event context), which the app
 * never used: together about a third of a plain delivery's CPU (docs/measured.md).
 */
export type Intake = Webhooks;

/**
 * An intake whose handlers' errors are logged with their delivery id, as Probot logged them.
 * Its `secret` is unused for deliveries, whose signature the webhook door checks as the body
 * arrives (webhook-door.ts); @octokit/webhooks requires one.
 */
export function createIntake(secret: string, log: Logger): Intake {
  const intake = new Webhooks({ secret });
  intake.onError((error) => {
    const errors: unknown[] = error instanceof AggregateError ? error.errors : [error];
    for (const err of errors) log.child({ name: 'event', id: error.event?.id }).error(err);
  });
  return intake;
}

/** @octokit/webhooks' middleware answers 202 after 9 s; GitHub gives a delivery 10. */
const STILL_PROCESSING_MS = 9000;

/**
 * Hands a delivery the webhook door found genuine to the intake's handlers and answers as
 * @octokit/webhooks' middleware does: 200 `ok` once they finished, 202 `still processing`
 * when they take past `stillProcessingMs` (9 s; they go on), else the first error's `status`
 * (500 without one) with its name and message. A body that is not JSON (signed, so GitHub
 * sent it: an error) is answered 400 and logged with the delivery id, not the body.
 */
export function receiveDelivery(
  intake: Intake,
  log: Logger,
  stillProcessingMs = STILL_PROCESSING_MS,
) {
  return async (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<boolean> => {
    const id = String(req.headers['x-github-delivery']);
    const name = String(req.headers['x-github-event']) as EmitterWebhookEventName;
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      log.error({ delivery: id, event: name, bytes: body.length }, 'webhook body is not JSON: 400');
      return reply(res, 400, { error: 'the body is not JSON' });
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), stillProcessingMs);
    });
    const handled = intake.receive({ id, name, payload } as Parameters<Intake['receive']>[0]).then(
      () => null,
      (error: unknown) => error,
    );
    const outcome = await Promise.race([handled, late]);
    clearTimeout(timer);
    if (outcome === 'late') return reply(res, 202, 'still processing\n');
    if (outcome === null) return reply(res, 200, 'ok\n');
    const first = (outcome instanceof AggregateError ? outcome.errors[0] : outcome) as
      | { name?: string; message?: string; status?: unknown }
      | undefined;
    const error = first?.message
      ? `${first.name ?? 'Error'}: ${first.message}`
      : 'Error: An Unspecified error occurred';
    return reply(res, typeof first?.status === 'number' ? first.status : 500, { error });
  };
}

function reply(res: ServerResponse, status: number, body: string | object): true {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
  return true;
}
