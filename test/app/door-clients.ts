/**
 * Raw HTTP clients for the webhook door's tests: `node:net` sockets, so a request target is
 * sent exactly as written (dot segments, `%2e`, `\`, `#`, absolute form) and a body can be
 * trickled at a pace the test chooses.
 */
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { signWebhook } from '../fake-github/webhooks.js';

/** The status of the answer, or `closed` when the connection ended without one. */
export type Answer = number | 'closed';

/** GitHub's delivery headers with a signature that matches nothing (an outsider's request). */
export function unsignedHeaders(): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-github-event': 'issue_comment',
    'x-github-delivery': randomUUID(),
    'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
  };
}

/** A request in flight on a raw socket: what it was answered, and a way to stop sending. */
export interface RawRequest {
  readonly socket: Socket;
  readonly answer: Promise<Answer>;
}

/** Opens a socket to the app and writes the request head with `target` exactly as given. */
export function rawRequest(
  port: number,
  target: string,
  headers: Record<string, string>,
  method = 'POST',
): RawRequest {
  const socket = connect(port, '127.0.0.1');
  const head = [`${method} ${target} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close'];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  const answer = new Promise<Answer>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    // A refused sender is cut off: writes after that fail, which is part of the answer.
    socket.on('error', () => resolve('closed'));
    socket.on('close', () => resolve('closed'));
  });
  return { socket, answer };
}

/** Writes `body` (a shared buffer) `times` times, waiting for the socket to drain. */
export async function writeRepeated(socket: Socket, body: Buffer, times: number): Promise<void> {
  for (let i = 0; i < times && !socket.destroyed; i++) {
    if (!socket.write(body)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('drain', done);
        socket.on('close', done);
      });
    }
  }
}

/**
 * A chunked, unsigned delivery that sends one byte every `everyMs`, `bytes` of them, then
 * ends: a slow sender.
 */
export function slowSender(
  port: number,
  everyMs: number,
  bytes = 60,
): RawRequest & { stop(): void } {
  return pacedChunks(port, Buffer.from(' '), bytes, everyMs);
}

/**
 * A chunked, unsigned delivery of `times` copies of `piece`, one every `everyMs`, then the
 * last chunk: `{` first, so that it looks like JSON.
 */
export function pacedChunks(
  port: number,
  piece: Buffer,
  times: number,
  everyMs: number,
): RawRequest & { stop(): void } {
  const request = rawRequest(port, '/api/github/webhooks', {
    ...unsignedHeaders(),
    'transfer-encoding': 'chunked',
  });
  const { socket } = request;
  const frame = (data: Buffer | string) => {
    if (socket.destroyed) return;
    socket.write(`${Buffer.byteLength(data).toString(16)}\r\n`);
    socket.write(data);
    socket.write('\r\n');
  };
  frame('{');
  let sent = 0;
  const timer = setInterval(() => {
    if (sent++ < times) frame(piece);
    else {
      clearInterval(timer);
      if (!socket.destroyed) socket.write('0\r\n\r\n');
    }
  }, everyMs);
  void request.answer.then(() => clearInterval(timer));
  return {
    ...request,
    stop() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** A genuine delivery: a small `ping` signed with the app's `secret`, as GitHub sends it. */
export function genuineDelivery(port: number, secret: string): Promise<Answer> {
  const body = JSON.stringify({ zen: 'Design for failure.', hook_id: 1 });
  const request = rawRequest(port, '/api/github/webhooks', {
    'content-type': 'application/json',
    'x-github-event': 'ping',
    'x-github-delivery': randomUUID(),
    'x-hub-signature-256': signWebhook(secret, body),
    'content-length': String(Buffer.byteLength(body)),
  });
  request.socket.write(body);
  return request.answer;
}
