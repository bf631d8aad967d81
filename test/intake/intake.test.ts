/**
 * The app's webhook intake (src/intake/), past the webhook door: what each delivery is
 * answered, as GitHub reads the answer (200, 202 when the handlers take too long, a handler's
 * error's status, 400 for a body that is not JSON), and what is logged.
 */
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryNotQueuedError } from '../../src/app/delivery-not-queued-error.js';
import { createIntake, receiveDelivery } from '../../src/intake/intake.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** An intake behind a server that hands it every request's body, and the log lines it wrote. */
async function serve(stillProcessingMs?: number) {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  const intake = createIntake('unused', log);
  const deliver = receiveDelivery(intake, log, stillProcessingMs);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => void deliver(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const post = async (body: string, event = 'issue_comment', id = 'delivery-1') => {
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'x-github-delivery': id, 'x-github-event': event },
      body,
    });
    return { status: res.status, text: await res.text() };
  };
  return { intake, post, lines };
}

const COMMENT = JSON.stringify({ action: 'created', comment: { id: 7 } });

describe('the webhook intake', () => {
  it('runs the event’s handlers on the delivery’s id, name and payload, then answers 200', async () => {
    const { intake, post } = await serve();
    const seen: unknown[] = [];
    intake.on('issue_comment.created', ({ id, name, payload }) => {
      seen.push({ id, name, action: (payload as { action: string }).action });
    });

    expect(await post(COMMENT)).toEqual({ status: 200, text: 'ok\n' });
    expect(seen).toEqual([{ id: 'delivery-1', name: 'issue_comment', action: 'created' }]);
  });

  it('a delivery that could not be queued is answered 503 naming why, and logged with its id', async () => {
    const { intake, post, lines } = await serve();
    intake.on('issue_comment', () => {
      throw new DeliveryNotQueuedError('issue_comment.created', 'delivery-9', new Error('down'));
    });

    const answer = await post(COMMENT, 'issue_comment', 'delivery-9');

    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text).error).toMatch(/^DeliveryNotQueuedError: delivery delivery-9/);
    expect(lines.some((line) => line.level === 50 && line.id === 'delivery-9')).toBe(true);
  });

  it('a handler error without a status is answered 500', async () => {
    const { intake, post } = await serve();
    intake.on('issue_comment', () => {
      throw new TypeError('head.indexOf is not a function');
    });

    const answer = await post(COMMENT);

    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toEqual({
      error: 'TypeError: head.indexOf is not a function',
    });
  });

  it('handlers still running when GitHub’s wait is nearly over: 202, and they finish after', async () => {
    const { intake, post } = await serve(1);
    let release: () => void = () => {};
    let finished = false;
    intake.on('issue_comment', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      finished = true;
    });

    expect(await post(COMMENT)).toEqual({ status: 202, text: 'still processing\n' });
    expect(finished).toBe(false);
    release();
    await expect.poll(() => finished).toBe(true);
  });

  it('a body that is not JSON is answered 400, logged as an error without its text', async () => {
    const { intake, post, lines } = await serve();
    let handled = false;
    intake.onAny(() => {
      handled = true;
    });

    const answer = await post('{"action":"created","note":"canary-3c1"');

    expect(answer.status).toBe(400);
    expect(handled).toBe(false);
    expect(lines.filter((line) => line.level === 50).map((line) => line.msg)).toEqual([
      'webhook body is not JSON: 400',
    ]);
    expect(JSON.stringify(lines)).not.toContain('canary-3c1');
  });
});
