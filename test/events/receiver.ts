import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { freePort } from '../helpers/app-harness.js';

/** One POST an events receiver got: headers and the exact body text. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly status: number;
}

/** A loopback receiver of outgoing events; `answer` decides each status (default 200). */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** The status of the n-th POST; null leaves it unanswered (a receiver that hangs). */
  answer: (attempt: number) => number | null;
  close(): Promise<void>;
}

/** Starts a {@link Receiver} on a free loopback port. */
export async function startReceiver(
  answer: (attempt: number) => number | null = () => 200,
): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = receiver.answer(received.length + 1);
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body, status: status ?? 0 });
      if (status !== null) res.writeHead(status).end();
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(receiver, { url: `http://127.0.0.1:${port}/claims` });
}
