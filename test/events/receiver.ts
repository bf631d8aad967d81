import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { freePort } from '../helpers/app-harness.js';

/** One POST an events receiver got: headers and the exact body text. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly status: number;
}

/** A status to answer with, and headers to send with it (a redirect's `location`). */
export interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A loopback receiver of outgoing events; `answer` decides each status (default 200). */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** The status of the n-th POST; null leaves it unanswered (a receiver that hangs). */
  answer: (attempt: number) => number | Answer | null;
  /** TCP connections open now, and the most that were ever open at once. */
  readonly connections: { open: number; peak: number };
  close(): Promise<void>;
}

/** Starts a {@link Receiver} on a free loopback port. */
export async function startReceiver(
  answer: (attempt: number) => number | Answer | null = () => 200,
): Promise<Receiver> {
  const received: Received[] = [];
  const connections = { open: 0, peak: 0 };
  const receiver: Receiver = {
    url: '',
    received,
    answer,
    connections,
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
      const given = receiver.answer(received.length + 1);
      const reply = typeof given === 'number' ? { status: given } : given;
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body, status: reply?.status ?? 0 });
      if (reply !== null) res.writeHead(reply.status, reply.headers ?? {}).end();
    });
  });
  server.on('connection', (socket) => {
    connections.open += 1;
    connections.peak = Math.max(connections.peak, connections.open);
    socket.on('close', () => {
      connections.open -= 1;
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(receiver, { url: `http://127.0.0.1:${port}/claims` });
}
