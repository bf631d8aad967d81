import { createServer, type Server } from 'node:http';
import { freePort } from '../helpers/app-harness.js';

/** One span as an OTLP/HTTP JSON export carries it, with its resource's attributes. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  /** OTLP's span kind: 1 internal, 2 server, 3 client, … */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly resource: Readonly<Record<string, unknown>>;
}

/** OTLP's kind of a span that serves an incoming request. */
export const SPAN_KIND_SERVER = 2;

/** An in-process OTLP/HTTP traces receiver (`POST /v1/traces`, JSON). */
export interface OtlpReceiver {
  /** What `OTEL_EXPORTER_OTLP_ENDPOINT` is set to. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

/** An OTLP attribute value ({ stringValue }, { intValue }, …) as a plain value. */
function plain(attributes: readonly KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) {
    const [v] = Object.values(value);
    out[key] = 'intValue' in value ? Number(v) : v;
  }
  return out;
}

/** Starts an {@link OtlpReceiver} on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: Array<{
          resource?: { attributes?: KeyValue[] };
          scopeSpans?: Array<{
            spans?: Array<{
              traceId: string;
              spanId: string;
              parentSpanId?: string;
              name: string;
              kind?: number;
              attributes?: KeyValue[];
            }>;
          }>;
        }>;
      };
      for (const r of body.resourceSpans ?? []) {
        const resource = plain(r.resource?.attributes);
        for (const scope of r.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
              name: span.name,
              kind: span.kind ?? 0,
              attributes: plain(span.attributes),
              resource,
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
